import { describe, expect, it } from 'vitest'
import { databaseAnsweringNothing } from './testing/database-answering-nothing'
import { makeRepositories, makeTransactionRepositories, type Repositories } from './repositories'

const db = databaseAnsweringNothing()
const now = () => new Date(0)

/** Every repository the domain's contexts ask of the bag (the compiler holds this list to `Repositories`). */
const EVERY_NAME = {
  users: true,
  accessTokens: true,
  passwordResets: true,
  registration: true,
  reference: true,
  catalog: true,
  personalRecords: true,
  files: true,
  media: true,
  pushDeliveries: true,
  verifications: true,
  cards: true,
  bankAccounts: true,
  paymentCustomers: true,
  payoutAccounts: true,
  subscriptions: true,
  teaches: true,
  daySchedules: true,
  holidays: true,
  locations: true,
  bookableTeaches: true,
  slotFacts: true,
  calendarFeeds: true,
  tutorSearch: true,
  tutorDirectory: true,
  bookings: true,
  coupons: true,
  reminders: true,
  notes: true,
  payments: true,
  paymentEvents: true,
  tutorTransfers: true,
  failingPayments: true,
  reviews: true,
  outbox: true,
  webhookEvents: true,
  webhookEndpoints: true,
  webhookDeliveries: true,
  integrationEvents: true,
} satisfies Record<keyof Repositories, true>
const names = Object.keys(EVERY_NAME) as (keyof Repositories)[]

describe('the repositories of a transaction', () => {
  it('answers every repository the domain asks for, in a transaction and outside one', async () => {
    const outside = makeRepositories(db, now)
    await db.transaction().execute(async (trx) => {
      const inside = makeTransactionRepositories(trx, now)
      const unanswered = names.filter((name) => typeof inside[name] !== 'object' || typeof outside[name] !== 'object')
      expect(unanswered).toEqual([])
    })
  })

  it('builds only the part whose repository is read, when it is first read', async () => {
    await db.transaction().execute(async (trx) => {
      const repos = makeTransactionRepositories(trx, now)
      // What the bag keeps of its own: the parts built so far.
      expect(Object.keys(repos)).toEqual([])
      const bookings = repos.bookings
      expect(Object.keys(repos).sort()).toEqual(['bookings', 'coupons', 'reminders'])
      expect(repos.coupons).toBe(repos.coupons)
      expect(repos.bookings).toBe(bookings)
      expect(repos.bookings.lockById).toBeTypeOf('function')
    })
  })
})
