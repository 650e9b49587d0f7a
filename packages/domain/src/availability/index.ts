export type { BookedLesson, BusyInterval } from './busy'
export { checkSlot, type SlotCheckDeps, type SlotQuery, warmSlotCheck } from './check-slot'
export {
  type Availability,
  type AvailabilityInput,
  type AvailabilityRequest,
  type AvailableTime,
  computeAvailability,
  type DayAvailability,
} from './compute-availability'
export { findBookable } from './find-bookable'
export { availabilityInputSchema, availabilityRequestSchema, bookedLessonSchema, busyIntervalSchema } from './input-schema'
export { type AvailabilityQuery, getAvailability, type GetAvailabilityError, type TeachAvailability } from './get-availability'
export { getCalendarFeed } from './get-calendar-feed'
export { DURATION_PREFERENCE, type DurationPreference, lessonDurationProblem } from './lesson-duration'
export type { LoadedAvailability, SlotReaders } from './load-availability-input'
export type {
  AddressDirectory,
  AddressMatch,
  AvailabilityDeps,
  AvailabilityRepos,
  BookableTeach,
  BookableTeachReader,
  BusyCalendar,
  CalendarFeedRepository,
  SlotFactsRange,
  TravelTimes,
  TutorLesson,
  TutorSlotFacts,
  TutorSlotFactsReader,
} from './ports'
export { searchAddresses } from './search-addresses'
export { setCalendarFeed } from './set-calendar-feed'
export { slotUnavailable, type SlotUnavailable } from './slot-check'
