import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { fieldError, type ValidationFailed } from '../shared'
import type { AccountsDeps } from './ports'
import { PASSWORD_RESET_MINUTES } from './request-password-reset'
import { normaliseEmail, type User } from './user'

export type ResetPasswordInput = { email: string; token: string; password: string }

/** Sets the new password, spends every reset token of the user and ends all sessions. */
export function resetPassword(deps: AccountsDeps, input: ResetPasswordInput): ResultAsync<User, ValidationFailed> {
  return new ResultAsync(run(deps, input))
}

async function run(deps: AccountsDeps, input: ResetPasswordInput): Promise<Result<User, ValidationFailed>> {
  const now = deps.clock.now()
  const notBefore = new Date(now.getTime() - PASSWORD_RESET_MINUTES * 60_000)
  const passwordHash = await deps.hasher.hash(input.password)
  const refused = fieldError('token', 'is invalid or has expired')
  return deps.uow.run(async ({ users, passwordResets, accessTokens }) => {
    const user = await users.findByEmailWithPassword(normaliseEmail(input.email))
    const reset = await passwordResets.findUsable(deps.secrets.hash(input.token), notBefore)
    if (!user || !reset || reset.userId !== user.id) return err(refused)
    await users.setPasswordHash(user.id, passwordHash)
    await passwordResets.markAllUsed(user.id, now)
    await accessTokens.revokeAllForUser(user.id, now)
    const { passwordHash: _hidden, ...plain } = user
    return ok(plain)
  })
}
