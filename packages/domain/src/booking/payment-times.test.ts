import { describe, expect, it } from 'vitest'
import type { LinkBuilder } from '../accounts'
import type { BookingAggregate, BookingPayment, Person } from './booking-record'
import { movePaymentWithLesson } from './payment-times'
import type { BookingRepos, PaymentPatch } from './ports'
import { managementUrl } from './settlement'

const DAY = 86_400_000
const now = new Date('2026-06-01T10:00:00Z')

/** The payment rows' updates, as movePaymentWithLesson writes them. */
function recording() {
  const updates: Array<{ id: number; patch: PaymentPatch }> = []
  const repos = {
    payments: { update: async (id: number, patch: PaymentPatch) => void updates.push({ id, patch }) },
    outbox: { enqueue: async () => undefined },
    bookings: { addEvent: async () => undefined },
  } as unknown as Pick<BookingRepos, 'payments' | 'outbox' | 'bookings'>
  return { repos, updates }
}

describe('a rescheduled lesson moves every payment time (issue 19 finding 10)', () => {
  it("moves the deadline of an authorisation waiting for the customer's bank check with the lesson", async () => {
    const { repos, updates } = recording()
    const waiting = { id: 7, status: 'requires_action', authorizeAt: new Date(now.getTime() + 2 * DAY), captureAt: new Date(now.getTime() + 2 * DAY + 3_600_000) } as BookingPayment
    const times = { start: new Date(now.getTime() + 4 * DAY), finish: new Date(now.getTime() + 4 * DAY + 3_600_000) }
    await movePaymentWithLesson(repos, waiting, times, { now, actorId: 1 })
    expect(updates).toEqual([{ id: 7, patch: { authorizeAt: times.start, captureAt: times.finish } }])
  })
})

describe("a booking email's management link (issue 19 finding 10)", () => {
  const expiries: Date[] = []
  const links = { bookingSecretUrl: (_path: string, _grant: unknown, expiresAt: Date) => (expiries.push(expiresAt), 'url') } as unknown as LinkBuilder
  const a = (finish: Date) => ({ booking: { id: 3 }, lesson: { finish } }) as BookingAggregate
  const person = { id: 9 } as Person

  it("lasts until the lesson's finish when sent before it, and 7 days from sending after it", () => {
    const before = new Date(now.getTime() + DAY)
    managementUrl(links, a(before), person, now)
    const after = new Date(now.getTime() - DAY)
    managementUrl(links, a(after), person, now)
    expect(expiries).toEqual([before, new Date(now.getTime() + 7 * DAY)])
  })
})
