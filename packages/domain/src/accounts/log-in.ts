import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { invalidCredentials, type InvalidCredentials } from './errors'
import { issueSession, type SessionIssued } from './issue-session'
import type { AccountsDeps } from './ports'
import { normaliseEmail } from './user'

export type LogInInput = { email: string; password: string }

/** Unknown email, deleted account and wrong password all answer the same, in the same time. */
export function logIn(deps: AccountsDeps, input: LogInInput): ResultAsync<SessionIssued, InvalidCredentials> {
  return new ResultAsync(run(deps, input))
}

async function run(deps: AccountsDeps, input: LogInInput): Promise<Result<SessionIssued, InvalidCredentials>> {
  const { users, accessTokens } = deps.uow.repos
  const found = await users.findByEmailWithPassword(normaliseEmail(input.email))
  const matches = await deps.hasher.verify(found?.passwordHash, input.password)
  if (!found || !matches) return err(invalidCredentials())
  const { passwordHash: _hidden, ...user } = found
  return ok(await issueSession(deps, accessTokens, user))
}
