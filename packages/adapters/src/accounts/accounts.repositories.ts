import type { Kysely } from 'kysely'
import type { Database } from '../db/database'
import { accessTokenRepository } from './access-token.repository'
import { passwordResetRepository } from './password-reset.repository'
import { userRepository } from './user.repository'

/** The accounts context's part of the repository bag, outside a transaction: no locks. */
export function accountsRepositories(db: Kysely<Database>) {
  return {
    users: userRepository(db),
    accessTokens: accessTokenRepository(db),
    passwordResets: passwordResetRepository(db),
  }
}
