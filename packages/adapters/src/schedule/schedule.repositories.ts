import { repositoryPart } from '../db/repository-bag'
import { dayScheduleLocks, dayScheduleRepository } from './day-schedule.repository'
import { holidayRepository } from './holiday.repository'
import { locationRepository } from './location.repository'

/** The schedule context's part of the repository bag, and in a transaction the row locks its repositories take there. */
export const scheduleRepositories = repositoryPart({
  outside: (db) => ({
    daySchedules: dayScheduleRepository(db),
    holidays: holidayRepository(db),
    locations: locationRepository(db),
  }),
  locks: (trx, repos) => ({
    daySchedules: { ...repos.daySchedules, ...dayScheduleLocks(trx) },
  }),
  names: { daySchedules: true, holidays: true, locations: true },
})
