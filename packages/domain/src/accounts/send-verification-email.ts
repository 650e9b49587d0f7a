import { ok, ResultAsync } from 'neverthrow'
import type { EmailMessage } from '../outbox'
import type { AccountsDeps } from './ports'
import type { User } from './user'

const VERIFY_LINK_HOURS = 24

export type VerificationEmailOutcome = 'queued' | 'already_verified'

/** The email with a signed link that verifies the user's address for a day. */
export const verificationEmail = (deps: Pick<AccountsDeps, 'clock' | 'links'>, user: User, dedupeKey?: string): EmailMessage => {
  const expiresAt = new Date(deps.clock.now().getTime() + VERIFY_LINK_HOURS * 3_600_000)
  return {
    kind: 'email',
    template: 'verify_email',
    to: user.email,
    data: {
      firstname: user.firstname,
      verifyUrl: deps.links.signedUrl(`/api/v1/auth/email/verify/${user.id}`, {}, expiresAt),
    },
    ...(dedupeKey === undefined ? {} : { dedupeKey }),
  }
}

export function sendVerificationEmail(deps: AccountsDeps, user: User): ResultAsync<VerificationEmailOutcome, never> {
  if (user.emailVerifiedAt) return new ResultAsync(Promise.resolve(ok('already_verified' as const)))
  return ResultAsync.fromSafePromise(deps.uow.repos.outbox.enqueue(verificationEmail(deps, user))).map(() => 'queued' as const)
}
