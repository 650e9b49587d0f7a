import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../db/database'
import { bookingLocks, bookingRepository } from './booking.repository'
import { couponRepository } from './coupon.repository'
import { lessonReminderRepository } from './lesson-reminder.repository'
import { noteRepository } from './note.repository'

/** The booking context's part of the repository bag, outside a transaction: no locks. */
export function bookingRepositories(db: Kysely<Database>) {
  return {
    bookings: bookingRepository(db),
    coupons: couponRepository(db),
    notes: noteRepository(db),
    reminders: lessonReminderRepository(db),
  }
}

/** The same part bound to a transaction: its repositories with the row locks they take there. */
export function withBookingLocks(trx: Transaction<Database>, repos: ReturnType<typeof bookingRepositories>) {
  return {
    bookings: { ...repos.bookings, ...bookingLocks(trx) },
  }
}
