import type { HolidayRepository, DayScheduleRepository, LocationRepository } from '../schedule'
import type { Clock, UnitOfWork } from '../shared'
import type { TeachRepository } from '../teaching'
import type { TutorDirectory } from './tutor-facts'

export interface TutorsRepos {
  tutorDirectory: TutorDirectory
  teaches: TeachRepository
  daySchedules: DayScheduleRepository
  holidays: HolidayRepository
  locations: LocationRepository
}

export type TutorsDeps = { uow: UnitOfWork<TutorsRepos>; clock: Clock }

/** A tutor's lists are short; one generous page reads them whole. */
export const WHOLE_LIST = { page: 1, perPage: 100 } as const
