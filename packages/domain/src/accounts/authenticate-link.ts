import type { AccountsDeps } from './ports'
import type { User } from './user'

/**
 * `web.api`'s signed links (SPEC "Auth levels"): the live user a link names in `uid`, when the
 * link's signature holds; undefined for any other link.
 */
export async function authenticateSignedLink(deps: Pick<AccountsDeps, 'uow' | 'linkReader'>, pathAndQuery: string): Promise<User | undefined> {
  const uid = new URLSearchParams(pathAndQuery.split('?')[1] ?? '').get('uid')
  if (!uid || !/^\d+$/.test(uid) || !deps.linkReader.isSigned(pathAndQuery)) return undefined
  return deps.uow.repos.users.findById(Number(uid))
}

/**
 * An emailed booking link's `secret` (CONTRACT §14): the live user it was issued to, for the
 * booking it was issued for only; undefined for another booking, or a secret that does not open
 * (altered, or expired at the lesson's finish).
 */
export async function authenticateBookingSecret(
  deps: Pick<AccountsDeps, 'uow' | 'linkReader'>,
  input: { bookingId: number; secret: string },
): Promise<User | undefined> {
  const grant = deps.linkReader.openBookingSecret(input.secret)
  if (!grant || grant.bookingId !== input.bookingId) return undefined
  return deps.uow.repos.users.findById(grant.userId)
}
