import { repositoryPart } from '../db/repository-bag'
import { accessTokenRepository } from './access-token.repository'
import { passwordResetRepository } from './password-reset.repository'
import { userRepository } from './user.repository'

/** The accounts context's part of the repository bag. */
export const accountsRepositories = repositoryPart({
  outside: (db) => ({
    users: userRepository(db),
    accessTokens: accessTokenRepository(db),
    passwordResets: passwordResetRepository(db),
  }),
  names: { users: true, accessTokens: true, passwordResets: true },
})
