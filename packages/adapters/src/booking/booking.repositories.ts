import type { Kysely, Transaction } from 'kysely'
import type { Clock } from '@tutoring/domain/shared'
import type { Database } from '../db/database'
import { bookingLocks, bookingRepository } from './booking.repository'
import { couponRepository } from './coupon.repository'
import { noteRepository } from './note.repository'

/** The booking context's part of the repository bag, outside a transaction: no locks. */
export function bookingRepositories(db: Kysely<Database>, clock: Clock) {
  return {
    bookings: bookingRepository(db, clock),
    coupons: couponRepository(db),
    notes: noteRepository(db),
  }
}

/** The same part bound to a transaction: its repositories with the row locks they take there. */
export function withBookingLocks(trx: Transaction<Database>, repos: ReturnType<typeof bookingRepositories>, clock: Clock) {
  return {
    bookings: { ...repos.bookings, ...bookingLocks(trx, clock) },
  }
}
