import type { DayAvailabilitiesTable, DayAvailabilitySlotsTable } from './day-availabilities.table'
import type { HolidaysTable } from './holidays.table'
import type { LocationsTable } from './locations.table'

/** The schedule context's tables, as Kysely sees them; `Database` joins every context's. */
export interface ScheduleTables {
  day_availabilities: DayAvailabilitiesTable
  day_availability_slots: DayAvailabilitySlotsTable
  holidays: HolidaysTable
  locations: LocationsTable
}
