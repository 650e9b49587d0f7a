import { repositoryPart } from '../db/repository-bag'
import { bookingLocks, bookingRepository } from './booking.repository'
import { couponRepository } from './coupon.repository'
import { lessonReminderRepository } from './lesson-reminder.repository'

/** The booking context's part of the repository bag, and in a transaction the row locks its repositories take there. */
export const bookingRepositories = repositoryPart({
  outside: (db) => ({
    bookings: bookingRepository(db),
    coupons: couponRepository(db),
    reminders: lessonReminderRepository(db),
  }),
  locks: (trx, repos) => ({
    bookings: { ...repos.bookings, ...bookingLocks(trx) },
  }),
  names: { bookings: true, coupons: true, reminders: true },
})
