import { BOOKING_WINDOW_DAYS, checkInput, dayNumberOf, distanceMiles, isInPerson, publicPoint, weekdayIndexOf, type GeoPoint, type IsoDate, type LessonTypeName } from '../shared'
import { DAY_NAMES, type Holiday, type WeeklyEntry } from '../schedule'
import { isSubscriptionValid, type SubscriptionStatus } from '../subscriptions'
import { type VerificationStatuses } from '../verification'
import { searchQuerySchema, tutorSnapshotSchema } from './input-schema'

/**
 * Stable codes for `GET /api/v1/tutors/status` `reasons`, one or more per rule of SPEC.md
 * "A tutor appears in results only when", in rule order; rule 8 (a valid subscription) is
 * CONTRACT §14's.
 */
export const ELIGIBILITY_REASONS = [
  'profile_picture_missing',
  'profile_video_missing',
  'bio_missing',
  'address_missing',
  'mobile_missing',
  'identity_not_passed',
  'dbs_not_passed',
  'qualification_not_passed',
  'not_visible',
  'no_availability',
  'on_holiday',
  'out_of_travel_distance',
  'date_outside_window',
  'subscription_inactive',
] as const
export type EligibilityReason = (typeof ELIGIBILITY_REASONS)[number]

/** Which of the eight rules each reason belongs to. */
export const ELIGIBILITY_RULE_OF: Record<EligibilityReason, 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8> = {
  profile_picture_missing: 1,
  profile_video_missing: 1,
  bio_missing: 1,
  address_missing: 1,
  mobile_missing: 1,
  identity_not_passed: 2,
  dbs_not_passed: 2,
  qualification_not_passed: 2,
  not_visible: 3,
  no_availability: 4,
  on_holiday: 5,
  out_of_travel_distance: 6,
  date_outside_window: 7,
  subscription_inactive: 8,
}

export type TutorLocation = GeoPoint & { travelDistanceMiles: number }

/** What search needs to know of a tutor; built by an adapter from the tutor's records. */
export type TutorSnapshot = {
  profile: { hasPicture: boolean; hasVideo: boolean; bio: string | null; hasAddress: boolean; hasMobile: boolean }
  verifications: VerificationStatuses
  /** The live subscription's status; null when the tutor has none. */
  subscriptionStatus: SubscriptionStatus | null
  isVisible: boolean
  schedule: readonly WeeklyEntry[]
  holidays: readonly Holiday[]
  location: TutorLocation | null
}

/** The search's parameters; `today` is London's date (see londonToday). */
export type SearchQuery = {
  today: IsoDate
  date?: IsoDate
  lessonType?: LessonTypeName
  studentLocation?: GeoPoint
}

export type Eligibility = { eligible: true } | { eligible: false; reasons: EligibilityReason[] }

const profileReasons = (profile: TutorSnapshot['profile']): EligibilityReason[] => {
  const reasons: EligibilityReason[] = []
  if (!profile.hasPicture) reasons.push('profile_picture_missing')
  if (!profile.hasVideo) reasons.push('profile_video_missing')
  if (!profile.bio || profile.bio.trim() === '') reasons.push('bio_missing')
  if (!profile.hasAddress) reasons.push('address_missing')
  if (!profile.hasMobile) reasons.push('mobile_missing')
  return reasons
}

const verificationReasons = (v: VerificationStatuses): EligibilityReason[] => {
  const reasons: EligibilityReason[] = []
  if (v.identity !== 'PASS') reasons.push('identity_not_passed')
  if (v.dbs !== 'PASS') reasons.push('dbs_not_passed')
  if (v.qualification !== 'PASS') reasons.push('qualification_not_passed')
  return reasons
}

/**
 * Rule 4 as SQL can check it: a schedule entry with a window on the requested date's weekday
 * (any weekday without a date) offering the requested lesson type. Free slots are
 * availability's business, not search's: a fully booked tutor still appears.
 */
const hasAvailability = (schedule: readonly WeeklyEntry[], query: SearchQuery): boolean => {
  const weekday = query.date === undefined ? undefined : DAY_NAMES[weekdayIndexOf(dayNumberOf(query.date))]
  return schedule.some(
    (entry) =>
      entry.slots.length > 0 &&
      (weekday === undefined || entry.day === weekday) &&
      (query.lessonType === undefined || entry.lessonTypes.includes(query.lessonType)),
  )
}

/** Rule 5 on the requested date, or today without one. */
const isOnHoliday = (holidays: readonly Holiday[], date: IsoDate): boolean =>
  holidays.some((h) => h.startDate <= date && date <= h.endDate)

/**
 * Rule 6 applies to in-person lessons when the student gave a place. It measures from the
 * tutor's public point, not the home: otherwise appearing and vanishing as a searcher moves
 * would draw the circle around the exact home.
 */
const isOutOfTravelDistance = (location: TutorLocation | null, query: SearchQuery): boolean => {
  if (query.lessonType === undefined || !isInPerson(query.lessonType) || !query.studentLocation) return false
  return !location || distanceMiles(publicPoint(location), query.studentLocation) > location.travelDistanceMiles
}

/** Rule 7: from today through today + 14, both included. */
const isOutsideWindow = (query: SearchQuery): boolean => {
  if (query.date === undefined) return false
  const days = dayNumberOf(query.date) - dayNumberOf(query.today)
  return days < 0 || days > BOOKING_WINDOW_DAYS
}

/** Rule 8 (CONTRACT §14): a subscription that is trialing or active. */
const isSubscriptionInactive = (status: SubscriptionStatus | null): boolean => status === null || !isSubscriptionValid(status)

/**
 * SPEC.md's seven rules for appearing in search and CONTRACT §14's eighth, as one function:
 * eligible, or every reason why not. `GET /api/v1/tutors/status` asks it with `{ today }` alone.
 * Input outside tutorSnapshotSchema and searchQuerySchema throws InvalidInput.
 */
export const searchEligibility = (tutor: TutorSnapshot, query: SearchQuery): Eligibility => {
  checkInput<TutorSnapshot>('searchEligibility', tutorSnapshotSchema, tutor)
  checkInput<SearchQuery>('searchEligibility', searchQuerySchema, query)
  const reasons = [...profileReasons(tutor.profile), ...verificationReasons(tutor.verifications)]
  if (!tutor.isVisible) reasons.push('not_visible')
  if (!hasAvailability(tutor.schedule, query)) reasons.push('no_availability')
  if (isOnHoliday(tutor.holidays, query.date ?? query.today)) reasons.push('on_holiday')
  if (isOutOfTravelDistance(tutor.location, query)) reasons.push('out_of_travel_distance')
  if (isOutsideWindow(query)) reasons.push('date_outside_window')
  if (isSubscriptionInactive(tutor.subscriptionStatus)) reasons.push('subscription_inactive')
  return reasons.length === 0 ? { eligible: true } : { eligible: false, reasons }
}
