import { isSubscriptionValid, type SubscriptionStatus } from '../subscriptions'
import { allVerificationsPassed, type VerificationStatuses } from '../verification'

/** What decides whether a tutor may be booked, read with the teach asked about. */
export type TutorBookability = {
  verifications: VerificationStatuses
  /** The live subscription's status; null when the tutor has none. */
  subscriptionStatus: SubscriptionStatus | null
}

/**
 * CONTRACT §14 "Who can be booked": identity, DBS and qualification all passed (a
 * safeguarding rule: DBS exists for this) and a valid subscription. Visibility and a complete
 * profile gate search only, so a tutor at capacity can hide and keep taking regulars.
 */
export const isBookable = (tutor: TutorBookability): boolean =>
  allVerificationsPassed(tutor.verifications) && tutor.subscriptionStatus !== null && isSubscriptionValid(tutor.subscriptionStatus)
