import { ok, ResultAsync } from 'neverthrow'
import type { AccountsDeps } from './ports'
import { normaliseEmail } from './user'

export const PASSWORD_RESET_MINUTES = 6

/** Always succeeds, so the answer never tells whether an email is registered. */
export function requestPasswordReset(deps: AccountsDeps, email: string): ResultAsync<void, never> {
  return new ResultAsync(
    (async () => {
      const normalised = normaliseEmail(email)
      await deps.uow.run(async ({ users, passwordResets, outbox }) => {
        const user = await users.findByEmailWithPassword(normalised)
        if (!user) return ok(undefined)
        const { token, hash } = deps.secrets.generate()
        const now = deps.clock.now()
        await passwordResets.insert({ userId: user.id, tokenHash: hash, createdAt: now })
        await outbox.enqueue({
          kind: 'email',
          template: 'reset_password',
          to: user.email,
          data: {
            firstname: user.firstname,
            resetUrl: deps.links.url('/password/reset', { token, email: user.email }),
            expiresInMinutes: PASSWORD_RESET_MINUTES,
          },
        })
        return ok(undefined)
      })
      return ok(undefined)
    })(),
  )
}
