import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { feeOnPart, heldPence, routeBookingPayment, separateTransferOf, tutorOwedOf, tutorShareOf } from './tutor-share'

const booking = (id: number, lessonPricePence: number) => ({ booking: { id, lessonPricePence } }) as Parameters<typeof routeBookingPayment>[0]

describe("a tutor's share", () => {
  it("names an enabled account as the destination and keeps the rest of the customer's payment as the fee", () => {
    expect(routeBookingPayment(booking(7, 3000), 3300, { accountId: 'acct_1', userId: 2, payoutsEnabled: true })).toEqual({
      destinationAccountId: 'acct_1',
      applicationFeePence: 300,
      transferGroup: 'booking-7',
    })
  })

  it('takes the charge to the platform alone while the account cannot be paid out, or there is none', () => {
    expect(routeBookingPayment(booking(7, 3000), 3300, { accountId: 'acct_1', userId: 2, payoutsEnabled: false }).destinationAccountId).toBeNull()
    expect(routeBookingPayment(booking(7, 3000), 3300, undefined)).toEqual({ destinationAccountId: null, applicationFeePence: 300, transferGroup: 'booking-7' })
  })

  it('leaves the platform no negative fee when a coupon takes more than the service fee', () => {
    expect(routeBookingPayment(booking(7, 3000), 2500, undefined).applicationFeePence).toBe(0)
  })

  it('keeps the fee in proportion to a partial capture, rounded half up', () => {
    expect(feeOnPart({ applicationFeePence: 300 }, 3300, 1650)).toBe(150)
    expect(feeOnPart({ applicationFeePence: 275 }, 3025, 1513)).toBe(138)
    expect(feeOnPart({ applicationFeePence: 300 }, 0, 0)).toBe(0)
  })

  it('is what the processor holds less the fee on it: the whole share, half after a late cancel, nothing after a full refund', () => {
    const routing = { destinationAccountId: null, applicationFeePence: 300, transferGroup: 'booking-1' }
    expect(tutorShareOf({ amountPence: 3300, capturedPence: 3300, refundedPence: 0, routing })).toBe(3000)
    // A partial capture records the released part as refunded.
    expect(tutorShareOf({ amountPence: 3300, capturedPence: 1650, refundedPence: 1650, routing })).toBe(1500)
    expect(tutorShareOf({ amountPence: 3300, capturedPence: 3300, refundedPence: 3300, routing })).toBe(0)
    expect(tutorShareOf({ amountPence: 3300, capturedPence: 0, refundedPence: 0, routing })).toBe(0)
  })

  it('never exceeds what is held nor goes below nothing, and shares plus fee make up what is held', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }), fc.boolean(), (amount, feePct, keptPct, refundedAfter) => {
        const fee = Math.floor((amount * feePct) / 100)
        const kept = Math.floor((amount * keptPct) / 100)
        const p = refundedAfter
          ? { amountPence: amount, capturedPence: amount, refundedPence: amount - kept }
          : { amountPence: amount, capturedPence: kept, refundedPence: amount - kept }
        const share = tutorShareOf({ ...p, routing: { destinationAccountId: null, applicationFeePence: fee, transferGroup: 'g' } })
        expect(heldPence(p)).toBe(kept)
        expect(share).toBeGreaterThanOrEqual(0)
        expect(share).toBeLessThanOrEqual(kept)
        expect(share + feeOnPart({ applicationFeePence: fee }, amount, kept)).toBe(kept)
      }),
    )
  })

  it('owes the tutor the lesson price whatever the coupon; the platform sends what the charge does not carry', () => {
    const routing = (destinationAccountId: string | null, applicationFeePence: number) => ({ destinationAccountId, applicationFeePence, transferGroup: 'booking-7' })
    const captured = (amountPence: number, dest: string | null) => ({ amountPence, capturedPence: amountPence, refundedPence: 0, status: 'succeeded' as const, routing: routing(dest, Math.max(0, amountPence - 3000)) })
    const owed = { lessonPricePence: 3000, refunded: false }
    // 20.00 off a 30.00 lesson (33.00 with the fee): 13.00 charged, the tutor still owed 30.00.
    expect(tutorOwedOf(captured(1300, 'acct_1'), owed)).toBe(3000)
    expect(separateTransferOf(captured(1300, 'acct_1'), owed)).toBe(1700)
    expect(separateTransferOf(captured(1300, null), owed)).toBe(3000)
    expect(separateTransferOf(captured(3300, 'acct_1'), owed)).toBe(0)
    // A 100 % coupon: nothing charged, the price paid by the platform, unless refunded.
    expect(separateTransferOf(captured(0, 'acct_1'), owed)).toBe(3000)
    expect(separateTransferOf(captured(0, null), { lessonPricePence: 3000, refunded: true })).toBe(0)
    // Half refunded: half owed.
    expect(tutorOwedOf({ ...captured(1300, null), refundedPence: 650 }, owed)).toBe(1500)
  })
})
