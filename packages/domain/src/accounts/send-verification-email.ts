import { ok, ResultAsync } from 'neverthrow'
import type { AccountsDeps } from './ports'
import type { User } from './user'

const VERIFY_LINK_HOURS = 24

export type VerificationEmailOutcome = 'queued' | 'already_verified'

export function sendVerificationEmail(deps: AccountsDeps, user: User): ResultAsync<VerificationEmailOutcome, never> {
  if (user.emailVerifiedAt) return new ResultAsync(Promise.resolve(ok('already_verified' as const)))
  const expiresAt = new Date(deps.clock.now().getTime() + VERIFY_LINK_HOURS * 3_600_000)
  const queued = deps.uow.repos.outbox.enqueue({
    kind: 'email',
    template: 'verify_email',
    to: user.email,
    data: {
      firstname: user.firstname,
      verifyUrl: deps.links.signedUrl(`/api/v1/auth/email/verify/${user.id}`, {}, expiresAt),
    },
  })
  return ResultAsync.fromSafePromise(queued).map(() => 'queued' as const)
}
