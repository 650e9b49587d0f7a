import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../db/database'
import { dayScheduleLocks, dayScheduleRepository } from './day-schedule.repository'
import { holidayRepository } from './holiday.repository'
import { locationRepository } from './location.repository'

/** The schedule context's part of the repository bag, outside a transaction: no locks. */
export function scheduleRepositories(db: Kysely<Database>) {
  return {
    daySchedules: dayScheduleRepository(db),
    holidays: holidayRepository(db),
    locations: locationRepository(db),
  }
}

/** The same part bound to a transaction: its repositories with the row locks they take there. */
export function withScheduleLocks(trx: Transaction<Database>, repos: ReturnType<typeof scheduleRepositories>) {
  return {
    daySchedules: { ...repos.daySchedules, ...dayScheduleLocks(trx) },
  }
}
