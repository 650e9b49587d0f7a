import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { arbCancellationPolicy } from '@tutoring/testkit'
import { authorizeCancellation, planCancellation, planHoldExpiry, planRescheduleDecline, planRescheduleExpiry } from './cancellation'
import type { Actor } from '../shared'
import type { BookingState } from './booking-state'

const parties = { tutorId: 10, studentId: 20, parentId: 30, bookingOwnerId: 30 }
const tutor: Actor = { id: 10, roleId: 3 }
const student: Actor = { id: 20, roleId: 1 }
const parent: Actor = { id: 30, roleId: 2 }
const staff: Actor = { id: 1, roleId: 200 }
const stranger: Actor = { id: 99, roleId: 1 }
const start = new Date('2026-06-10T10:00:00Z')
const hoursBefore = (h: number) => new Date(start.getTime() - h * 3_600_000)
const paid = { state: 'PAYED' as const, paidPence: 2750 }
const active = { state: 'ACTIVE' as const, start }

describe('who may cancel', () => {
  it('lets staff, the tutor, the booking owner, the student and the parent cancel', () => {
    expect(authorizeCancellation(staff, parties)._unsafeUnwrap()).toBe('internal')
    expect(authorizeCancellation(tutor, parties)._unsafeUnwrap()).toBe('tutor')
    expect(authorizeCancellation(student, parties)._unsafeUnwrap()).toBe('customer')
    expect(authorizeCancellation(parent, parties)._unsafeUnwrap()).toBe('customer')
    expect(authorizeCancellation({ id: 40, roleId: 2 }, { ...parties, bookingOwnerId: 40 })._unsafeUnwrap()).toBe('customer')
  })

  it('refuses anyone else', () => {
    expect(authorizeCancellation(stranger, parties)._unsafeUnwrapErr().type).toBe('Forbidden')
  })
})

describe('cancelling a booking', () => {
  it('refunds the customer in full 24 hours or more ahead, to REFUNDED', () => {
    const plan = planCancellation({ actor: student, parties, lesson: active, booking: paid, now: hoursBefore(24) })._unsafeUnwrap()
    expect(plan.lesson.to).toBe('CANCELLED')
    expect(plan.booking.to).toBe('REFUNDED')
    expect(plan.refundPence).toBe(2750)
    expect(plan.effects).toEqual([
      { type: 'QueueEmail', template: 'lesson_cancelled', to: 'participants' },
      { type: 'Refund', amountPence: 2750 },
    ])
  })

  it('refunds the customer half less than 24 hours ahead, to PARTIAL_REFUNDED', () => {
    const plan = planCancellation({ actor: parent, parties, lesson: active, booking: paid, now: hoursBefore(2) })._unsafeUnwrap()
    expect(plan.booking.to).toBe('PARTIAL_REFUNDED')
    expect(plan.refundPence).toBe(1375)
  })

  it('always refunds in full when the tutor or staff cancel', () => {
    for (const actor of [tutor, staff]) {
      const plan = planCancellation({ actor, parties, lesson: active, booking: paid, now: hoursBefore(1) })._unsafeUnwrap()
      expect(plan.refundPence).toBe(2750)
      expect(plan.booking.to).toBe('REFUNDED')
    }
  })

  it('applies a configured policy', () => {
    const policy = [{ hoursBeforeStart: 48, refundPercent: 100 }, { hoursBeforeStart: 0, refundPercent: 25 }]
    const plan = planCancellation({ actor: student, parties, lesson: active, booking: paid, policy, now: hoursBefore(30) })._unsafeUnwrap()
    expect(plan.refundPence).toBe(688)
  })

  it('just cancels a booking never paid, refunding nothing', () => {
    const booking = { state: 'AWAITING_PAYMENT' as const, paidPence: 2750 }
    const plan = planCancellation({ actor: student, parties, lesson: active, booking, now: hoursBefore(30) })._unsafeUnwrap()
    expect(plan.booking.to).toBe('REFUNDED')
    expect(plan.refundPence).toBe(0)
    expect(plan.effects).toContainEqual({ type: 'CancelPaymentIntent' })
  })

  it('cancels a lesson while a proposal is pending', () => {
    const lesson = { state: 'RESCHEDULE' as const, start }
    const plan = planCancellation({ actor: student, parties, lesson, booking: paid, now: hoursBefore(100) })._unsafeUnwrap()
    expect(plan.lesson.to).toBe('CANCELLED')
    expect(plan.effects).toContainEqual({ type: 'ClearSuggestedTimes' })
  })

  it('refuses to cancel twice', () => {
    const lesson = { state: 'CANCELLED' as const, start }
    const booking = { state: 'REFUNDED' as const, paidPence: 2750 }
    expect(planCancellation({ actor: student, parties, lesson, booking, now: hoursBefore(30) })._unsafeUnwrapErr().type).toBe(
      'InvalidStateTransition',
    )
  })

  it('refuses strangers before looking at states', () => {
    expect(planCancellation({ actor: stranger, parties, lesson: active, booking: paid, now: hoursBefore(30) })._unsafeUnwrapErr().type).toBe(
      'Forbidden',
    )
  })

  it('never refunds more than was paid, and picks REFUNDED exactly when the refund is whole', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<BookingState>('PAYED', 'REQUIRES_CAPTURE'),
        fc.integer({ min: 1, max: 500_000 }),
        arbCancellationPolicy(),
        fc.integer({ min: -48, max: 400 }),
        fc.constantFrom(student, parent, tutor, staff),
        (state, paidPence, policy, hours, actor) => {
          const plan = planCancellation({
            actor,
            parties,
            lesson: active,
            booking: { state, paidPence },
            policy,
            now: hoursBefore(hours),
          })._unsafeUnwrap()
          expect(plan.refundPence).toBeLessThanOrEqual(paidPence)
          expect(plan.booking.to === 'REFUNDED').toBe(plan.refundPence === paidPence)
        },
      ),
      { numRuns: 1000 },
    )
  })
})

describe('reschedule outcomes', () => {
  const pending = { state: 'RESCHEDULE' as const, proposedBy: 'tutor' as const }

  it('cancels a declined proposal with a full refund', () => {
    const plan = planRescheduleDecline({ actor: student, parties, lesson: pending, booking: paid })._unsafeUnwrap()
    expect(plan.lesson.to).toBe('CANCELLED')
    expect(plan.booking.to).toBe('REFUNDED')
    expect(plan.effects).toEqual([
      { type: 'ClearSuggestedTimes' },
      { type: 'QueueEmail', template: 'lesson_cancelled', to: 'participants' },
      { type: 'Refund', amountPence: 2750 },
    ])
  })

  it('refuses a decline by the party that proposed', () => {
    expect(planRescheduleDecline({ actor: tutor, parties, lesson: pending, booking: paid })._unsafeUnwrapErr().type).toBe('Forbidden')
  })

  it('cancels an expired proposal with a full refund', () => {
    const lesson = { state: 'RESCHEDULE' as const, expiresAt: start }
    const plan = planRescheduleExpiry({ lesson, booking: { state: 'REQUIRES_CAPTURE', paidPence: 2750 }, now: start })._unsafeUnwrap()
    expect(plan.booking.to).toBe('REFUNDED')
    expect(plan.effects).toContainEqual({ type: 'VoidAuthorization' })
  })
})

describe('hold expiry', () => {
  const createdAt = new Date('2026-06-01T09:00:00Z')

  it('cancels the lesson of an unpaid booking after its hold: the booking REFUNDED with nothing refunded (CONTRACT §17)', () => {
    const plan = planHoldExpiry({
      lesson: { state: 'ACTIVE' },
      booking: { state: 'AWAITING_PAYMENT', createdAt },
      now: new Date('2026-06-01T09:15:00Z'),
    })._unsafeUnwrap()
    expect(plan.lesson.to).toBe('CANCELLED')
    expect(plan.booking.to).toBe('REFUNDED')
    expect(plan.effects).toEqual([{ type: 'CancelPaymentIntent' }])
  })

  it('leaves a paid booking alone', () => {
    const result = planHoldExpiry({ lesson: { state: 'ACTIVE' }, booking: { state: 'PAYED', createdAt }, now: new Date('2026-06-02T00:00:00Z') })
    expect(result._unsafeUnwrapErr().type).toBe('InvalidStateTransition')
  })
})
