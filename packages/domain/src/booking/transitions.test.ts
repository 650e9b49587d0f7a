import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { applyBookingCommand, arbBookingCommand, arbBookingState } from '@tutoring/testkit'
import { BOOKING_TRANSITIONS, transitionBooking } from './transitions'
import { BOOKING_STATES, bookingStateOf } from './booking-state'

const created = new Date('2026-06-01T09:00:00Z')
const minutesAfter = (m: number) => new Date(created.getTime() + m * 60_000)
const open = { lessonState: 'ACTIVE' as const }

describe('booking state machine', () => {
  it('uses the numbers of SPEC.md', () => {
    expect(BOOKING_STATES).toEqual({ REFUNDED: 0, PAYED: 1, AWAITING_PAYMENT: 3, PARTIAL_REFUNDED: 4, REQUIRES_CAPTURE: 5 })
    expect(bookingStateOf(5)).toBe('REQUIRES_CAPTURE')
    expect(bookingStateOf(2)).toBeUndefined()
  })

  it('creates a booking AWAITING_PAYMENT', () => {
    expect(transitionBooking('NEW', 'create', {})._unsafeUnwrap()).toEqual({ to: 'AWAITING_PAYMENT', effects: [] })
  })

  it('moves to REQUIRES_CAPTURE on a manual-capture payment', () => {
    expect(transitionBooking('AWAITING_PAYMENT', 'pay', { capture: 'manual', ...open })._unsafeUnwrap().to).toBe('REQUIRES_CAPTURE')
  })

  it('moves to PAYED on an immediate payment', () => {
    expect(transitionBooking('AWAITING_PAYMENT', 'pay', { capture: 'immediate', ...open })._unsafeUnwrap().to).toBe('PAYED')
  })

  it('refuses payment of a booking whose lesson was cancelled', () => {
    const result = transitionBooking('AWAITING_PAYMENT', 'pay', { capture: 'manual', lessonState: 'CANCELLED' })
    expect(result._unsafeUnwrapErr()).toEqual({
      type: 'InvalidStateTransition',
      machine: 'booking',
      from: 'AWAITING_PAYMENT',
      trigger: 'pay',
    })
  })

  it('refuses to take payment twice', () => {
    for (const from of ['PAYED', 'REQUIRES_CAPTURE'] as const) {
      expect(transitionBooking(from, 'pay', { capture: 'immediate', ...open })._unsafeUnwrapErr().type).toBe('InvalidStateTransition')
    }
  })

  it('moves REQUIRES_CAPTURE to PAYED on capture', () => {
    expect(transitionBooking('REQUIRES_CAPTURE', 'capture', {})._unsafeUnwrap()).toEqual({ to: 'PAYED', effects: [] })
  })

  it('refunds a paid booking in full to REFUNDED', () => {
    expect(transitionBooking('PAYED', 'cancel', { paidPence: 2750, refundPence: 2750, ...open })._unsafeUnwrap()).toEqual({
      to: 'REFUNDED',
      effects: [{ type: 'Refund', amountPence: 2750 }],
    })
  })

  it('refunds a paid booking in part to PARTIAL_REFUNDED', () => {
    expect(transitionBooking('PAYED', 'cancel', { paidPence: 2750, refundPence: 1375, ...open })._unsafeUnwrap()).toEqual({
      to: 'PARTIAL_REFUNDED',
      effects: [{ type: 'Refund', amountPence: 1375 }],
    })
  })

  it('records a 0 % refund as PARTIAL_REFUNDED with no processor call', () => {
    expect(transitionBooking('PAYED', 'cancel', { paidPence: 2750, refundPence: 0, ...open })._unsafeUnwrap()).toEqual({
      to: 'PARTIAL_REFUNDED',
      effects: [],
    })
  })

  it('releases an uncaptured authorisation in full to REFUNDED', () => {
    expect(transitionBooking('REQUIRES_CAPTURE', 'cancel', { paidPence: 2750, refundPence: 2750, ...open })._unsafeUnwrap()).toEqual({
      to: 'REFUNDED',
      effects: [{ type: 'VoidAuthorization' }],
    })
  })

  it('captures only the kept part of an uncaptured authorisation to PARTIAL_REFUNDED', () => {
    expect(transitionBooking('REQUIRES_CAPTURE', 'cancel', { paidPence: 2750, refundPence: 1375, ...open })._unsafeUnwrap()).toEqual({
      to: 'PARTIAL_REFUNDED',
      effects: [{ type: 'CapturePayment', amountPence: 1375 }],
    })
  })

  it('cancels a booking never paid: REFUNDED (nothing refunded, CONTRACT §17) and its payment intent is cancelled', () => {
    expect(transitionBooking('AWAITING_PAYMENT', 'cancel', { paidPence: 0, refundPence: 0, ...open })._unsafeUnwrap()).toEqual({
      to: 'REFUNDED',
      effects: [{ type: 'CancelPaymentIntent' }],
    })
  })

  it('refuses to cancel an unpaid booking twice', () => {
    expect(
      transitionBooking('AWAITING_PAYMENT', 'cancel', { paidPence: 0, refundPence: 0, lessonState: 'CANCELLED' })._unsafeUnwrapErr().type,
    ).toBe('InvalidStateTransition')
  })

  it('expires an unpaid hold from BOOKING_HOLD_MINUTES after creation, not before', () => {
    const expire = (minutes: number, holdMinutes?: number) =>
      transitionBooking('AWAITING_PAYMENT', 'expire_hold', { now: minutesAfter(minutes), createdAt: created, holdMinutes, ...open })
    expect(expire(15)._unsafeUnwrap()).toEqual({ to: 'REFUNDED', effects: [{ type: 'CancelPaymentIntent' }] })
    expect(expire(14.99)._unsafeUnwrapErr()).toEqual({ type: 'BookingHoldNotExpired', expiresAt: minutesAfter(15) })
    expect(expire(29, 30)._unsafeUnwrapErr().type).toBe('BookingHoldNotExpired')
  })

  it('does not expire the hold of a paid booking', () => {
    const c = { now: minutesAfter(60), createdAt: created, ...open }
    expect(transitionBooking('PAYED', 'expire_hold', c)._unsafeUnwrapErr().type).toBe('InvalidStateTransition')
  })

  it('treats a refund above what was paid as a bug', () => {
    expect(() => transitionBooking('PAYED', 'cancel', { paidPence: 100, refundPence: 101, ...open })).toThrow(RangeError)
  })

  it('has no row out of REFUNDED or PARTIAL_REFUNDED', () => {
    expect(BOOKING_TRANSITIONS.filter((row) => row.from === 'REFUNDED' || row.from === 'PARTIAL_REFUNDED')).toEqual([])
  })

  it('never leaves REFUNDED or PARTIAL_REFUNDED, whatever the trigger and its context', () => {
    fc.assert(
      fc.property(fc.constantFrom('REFUNDED' as const, 'PARTIAL_REFUNDED' as const), arbBookingCommand(), (from, command) => {
        expect(applyBookingCommand(from, command)._unsafeUnwrapErr().type).toBe('InvalidStateTransition')
      }),
      { numRuns: 1000 },
    )
  })

  it('once REFUNDED, stays REFUNDED through any sequence of triggers', () => {
    fc.assert(
      fc.property(arbBookingState(), fc.array(arbBookingCommand(), { maxLength: 12 }), (start, commands) => {
        let state = start
        let refunded = start === 'REFUNDED'
        for (const command of commands) {
          const result = applyBookingCommand(state, command)
          if (result.isOk()) state = result.value.to
          if (refunded) expect(state).toBe('REFUNDED')
          refunded ||= state === 'REFUNDED'
        }
      }),
      { numRuns: 1000 },
    )
  })

  it('answers every trigger without a row with a typed error, never a silent no-op', () => {
    fc.assert(
      fc.property(arbBookingState(), arbBookingCommand(), (state, command) => {
        const hasRow = BOOKING_TRANSITIONS.some((row) => row.from === state && row.trigger === command.trigger)
        if (!hasRow) expect(applyBookingCommand(state, command)._unsafeUnwrapErr().type).toBe('InvalidStateTransition')
      }),
      { numRuns: 1000 },
    )
  })
})
