import type { Kysely } from 'kysely'
import type { Database } from '../db/database'
import { bookableTeachRepository } from './bookable-teach.repository'
import { calendarFeedRepository } from './calendar-feed.repository'
import { tutorSlotFactsRepository } from './tutor-slot-facts.repository'

/** The availability context's part of the repository bag, outside a transaction: no locks. */
export function availabilityRepositories(db: Kysely<Database>) {
  return {
    bookableTeaches: bookableTeachRepository(db),
    slotFacts: tutorSlotFactsRepository(db),
    calendarFeeds: calendarFeedRepository(db),
  }
}
