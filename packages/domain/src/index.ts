/**
 * The package root: what another team installing the domain reaches for first, pure rules and
 * the values they take, with no port to implement. Everything else (use cases, ports, records,
 * each context's own rules) is reached by its context's subpath: `@tutoring/domain/booking`,
 * `@tutoring/domain/availability`, ... (README.md). `subpaths.test.ts` holds this list.
 */

// Free slots: availability's pure core, and the schedule it reads.
export {
  type Availability,
  type AvailabilityInput,
  availabilityInputSchema,
  type AvailabilityRequest,
  type AvailableTime,
  type BookedLesson,
  type BusyInterval,
  computeAvailability,
  type DayAvailability,
  DURATION_PREFERENCE,
  type DurationPreference,
  lessonDurationProblem,
} from './availability'
export { DAY_NAMES, type DayName, type Holiday, holidaySchema, type WeeklyEntry, weeklyEntrySchema } from './schedule'

// Who search shows: SPEC's eligibility rules.
export { type Eligibility, ELIGIBILITY_REASONS, type EligibilityReason, searchEligibility, type SearchQuery, searchQuerySchema, type TutorLocation, type TutorSnapshot, tutorSnapshotSchema } from './search'

// Prices, coupons and refunds.
export {
  type Coupon,
  type CouponDiscount,
  type CouponInvalid,
  type CouponInvalidReason,
  DEFAULT_CANCELLATION_POLICY,
  discountOn,
  lessonPriceBreakdown,
  lessonPricer,
  type PriceBreakdown,
  type PriceInput,
  type PricingTerms,
  priceInputSchema,
  refundAmount,
  refundPercentFor,
  type RefundTier,
  validateCoupon,
} from './pricing'

// The shared value types, and money (integer pence; strings only at the edge).
export {
  CURRENCY,
  formatPence,
  type GeoPoint,
  InvalidInput,
  type IsoDate,
  LESSON_TYPES,
  type LessonTypeName,
  parsePounds,
  type Pence,
  percentOf,
  roundHalfUp,
} from './shared'

// Every recoverable failure, for a caller's own status table.
export type { DomainError, DomainErrorType } from './errors'
