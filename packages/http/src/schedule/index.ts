import { routeGroups } from '../platform/routes'
import { dayAvailabilityRoutes } from './day-availabilities.routes'
import { holidayRoutes } from './holidays.routes'
import { locationRoutes } from './locations.routes'

/** A tutor's weekly schedule, location and holidays. */
export const routes = routeGroups(dayAvailabilityRoutes, locationRoutes, holidayRoutes)
export {
  DayAvailabilitySchema,
  HolidaySchema,
  LocationSchema,
  presentDayAvailability,
  presentHoliday,
  presentLocation,
} from './schedule.schemas'
