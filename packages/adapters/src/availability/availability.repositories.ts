import { repositoryPart } from '../db/repository-bag'
import { bookableTeachRepository } from './bookable-teach.repository'
import { calendarFeedRepository } from './calendar-feed.repository'
import { tutorSlotFactsRepository } from './tutor-slot-facts.repository'

/** The availability context's part of the repository bag. */
export const availabilityRepositories = repositoryPart({
  outside: (db) => ({
    bookableTeaches: bookableTeachRepository(db),
    slotFacts: tutorSlotFactsRepository(db),
    calendarFeeds: calendarFeedRepository(db),
  }),
  names: { bookableTeaches: true, slotFacts: true, calendarFeeds: true },
})
