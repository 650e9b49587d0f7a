export { clockMinutesOf, formatClockTime, formatTimeOfDay } from './clock-time'
export { createDaySchedule, type CreateDayScheduleInput } from './create-day-schedule'
export { createHoliday } from './create-holiday'
export {
  DAY_NAMES,
  dayIndexOf,
  type DayName,
  dayNameOf,
  type DaySchedule,
  type DayScheduleDraft,
  type ScheduleSlot,
  type WeeklyEntry,
} from './day-schedule'
export { holidaySchema, scheduleSlotSchema, weeklyEntrySchema } from './schemas'
export { deleteDaySchedule } from './delete-day-schedule'
export { deleteHoliday } from './delete-holiday'
export { deleteLocation } from './delete-location'
export type { Holiday, TutorHoliday } from './holiday'
export { listDaySchedules } from './list-day-schedules'
export { listHolidays } from './list-holidays'
export { listLocations } from './list-locations'
export type { TutorLocationDraft, TutorLocationRecord } from './location'
export type { DayScheduleRepository, HolidayRepository, LocationRepository, ScheduleDeps, ScheduleRepos } from './ports'
export type { LocationInput } from './resolve-location'
export { saveLocation } from './save-location'
export { type DaySchedulePatch, updateDaySchedule } from './update-day-schedule'
export { type LocationPatch, updateLocation } from './update-location'
