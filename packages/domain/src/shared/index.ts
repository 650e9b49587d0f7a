export {
  addDays,
  DAY_MS,
  dayNumberAt,
  dayNumberOf,
  HOUR_MS,
  isIsoDate,
  type IsoDate,
  isoDateOf,
  MINUTE_MS,
  weekdayIndexOf,
} from './calendar'
export { type Clock, systemClock } from './clock'
export { checkInput, geoPointSchema, instantSchema, InvalidInput, isoDateSchema, lessonTypeSchema, penceSchema } from './input'
export {
  fieldError,
  type FieldErrors,
  forbidden,
  type Forbidden,
  invalidStateTransition,
  type InvalidStateTransition,
  notFound,
  type NotFound,
  validationFailed,
  type ValidationFailed,
} from './errors'
export {
  DISTANCE_BAND_MILES,
  distanceBand,
  distanceMiles,
  findPostcode,
  type Geocoder,
  type GeoPoint,
  locatePostcode,
  type ParsedPostcode,
  parsePostcode,
  type PostcodeParser,
  PUBLIC_COORDINATE_PLACES,
  publicPoint,
} from './geography'
export { isInPerson, LESSON_TYPE_IDS, LESSON_TYPES, lessonTypeName, type LessonTypeName } from './lesson-types'
export {
  BOOKING_WINDOW_DAYS,
  DEFAULT_BOOKING_HOLD_MINUTES,
  DEFAULT_SERVICE_FEE_PERCENT,
  DEFAULT_TUTOR_TIME_ZONE,
  EXPERIENCE_RATING,
  MAX_PENDING_BOOKINGS,
  RESCHEDULE_NOTICE_HOURS,
  RESCHEDULE_PROPOSAL_TTL_HOURS,
  SLOT_INTERVAL_MINUTES,
} from './limits'
export { CURRENCY, formatPence, parsePounds, type Pence, percentOf, roundHalfUp } from './money'
export type { PageOf, PageRequest } from './paging'
export { type Actor, actsFor, isInternal, ROLE_IDS, type RoleId, roleName, type RoleName } from './roles'
export { type NoContext, selectTransition, tableMisuse, type TransitionRow } from './state-machine'
export {
  constantOffsetOver,
  instantOfWall,
  isValidTimeZone,
  LONDON,
  londonToday,
  offsetAt,
  offsetTimeline,
  type OffsetTimeline,
  zoneDayNumber,
  zoneOffsetMs,
} from './time-zone'
export type { UnitOfWork, WithoutLocks } from './unit-of-work'
export type { InboundEvent, WebhookEventLog } from './webhook-event-log'
export { MAX_SERIES_WEEKS, weeklyTimes } from './weekly-times'
