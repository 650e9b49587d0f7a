/** The numbers of SPEC.md "Limits" and CONTRACT.md §5-§6, named once. */
export const BOOKING_WINDOW_DAYS = 14
export const SLOT_INTERVAL_MINUTES = 15
export const RESCHEDULE_NOTICE_HOURS = 72
export const RESCHEDULE_PROPOSAL_TTL_HOURS = 48
export const DEFAULT_BOOKING_HOLD_MINUTES = 15
export const MAX_PENDING_BOOKINGS = 3
export const DEFAULT_SERVICE_FEE_PERCENT = 10
export const DEFAULT_TUTOR_TIME_ZONE = 'Europe/London'
export const EXPERIENCE_RATING = { min: 1, max: 5 } as const
