import type { App } from '../platform/routes'
import type { Services } from '@tutoring/adapters'
import { dayAvailabilityRoutes } from './day-availabilities'
import { holidayRoutes } from './holidays'
import { locationRoutes } from './locations'
import { teachRoutes } from './teaches'
import { tutorRoutes } from './tutors'

/** A tutor's teaching and schedule: teaches, weekly schedule, location, holidays, tutor views. */
export function teachingRoutes(app: App, services: Services): void {
  teachRoutes(app, services)
  dayAvailabilityRoutes(app, services)
  locationRoutes(app, services)
  holidayRoutes(app, services)
  tutorRoutes(app, services)
}
