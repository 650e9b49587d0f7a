import { describe, expect, it } from 'vitest'
import { checkBookingWindow, checkPendingBookings } from './booking-window'
import { isHoldingSlot } from './hold'

describe('booking window', () => {
  const now = new Date('2026-06-01T22:30:00Z') // 23:30 in London, still 2026-06-01

  it('accepts a start later today through the last minute of today + 14 in London', () => {
    expect(checkBookingWindow(new Date('2026-06-01T22:45:00Z'), now).isOk()).toBe(true)
    expect(checkBookingWindow(new Date('2026-06-15T22:59:00Z'), now).isOk()).toBe(true)
  })

  it('refuses a start on London day 15 or in the past', () => {
    expect(checkBookingWindow(new Date('2026-06-15T23:00:00Z'), now)._unsafeUnwrapErr()).toEqual({
      type: 'BookingWindowExceeded',
      firstDate: '2026-06-01',
      lastDate: '2026-06-15',
    })
    expect(checkBookingWindow(new Date('2026-06-01T22:00:00Z'), now).isErr()).toBe(true)
  })
})

describe('pending bookings', () => {
  it('allows a third unpaid booking and refuses a fourth', () => {
    expect(checkPendingBookings(2).isOk()).toBe(true)
    expect(checkPendingBookings(3)._unsafeUnwrapErr()).toEqual({ type: 'TooManyPendingBookings', limit: 3 })
  })

  it('counts a booking as holding its slot while unpaid within the hold, or paid, and not once cancelled', () => {
    const createdAt = new Date('2026-06-01T09:00:00Z')
    const at = (m: number) => new Date(createdAt.getTime() + m * 60_000)
    expect(isHoldingSlot({ bookingState: 'AWAITING_PAYMENT', lessonState: 'ACTIVE', createdAt, now: at(14) })).toBe(true)
    expect(isHoldingSlot({ bookingState: 'AWAITING_PAYMENT', lessonState: 'ACTIVE', createdAt, now: at(15) })).toBe(false)
    expect(isHoldingSlot({ bookingState: 'REQUIRES_CAPTURE', lessonState: 'ACTIVE', createdAt, now: at(600) })).toBe(true)
    expect(isHoldingSlot({ bookingState: 'PAYED', lessonState: 'CANCELLED', createdAt, now: at(1) })).toBe(false)
  })
})
