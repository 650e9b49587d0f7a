import fc from 'fast-check'
import {
  BOOKING_STATE_NAMES,
  transitionBooking,
  type BookingContexts,
  type BookingState,
  type BookingTrigger,
} from '@tutoring/domain/booking'
import { LESSON_STATE_NAMES, transitionLesson, type LessonContexts, type LessonState, type LessonTrigger } from '@tutoring/domain/lesson'

/** Instants of 2026-2027, whole minutes. */
export const arbInstant = (from = Date.UTC(2026, 0, 1), to = Date.UTC(2028, 0, 1)): fc.Arbitrary<Date> =>
  fc.integer({ min: from / 60_000, max: to / 60_000 - 1 }).map((minute) => new Date(minute * 60_000))

export const arbLessonState = (): fc.Arbitrary<LessonState> => fc.constantFrom(...LESSON_STATE_NAMES)
export const arbBookingState = (): fc.Arbitrary<BookingState> => fc.constantFrom(...BOOKING_STATE_NAMES)

export type LessonCommand = { [K in LessonTrigger]: { trigger: K; context: LessonContexts[K] } }[LessonTrigger]
export type BookingCommand = { [K in BookingTrigger]: { trigger: K; context: BookingContexts[K] } }[BookingTrigger]

const arbNear = (): fc.Arbitrary<Date> => arbInstant(Date.UTC(2026, 5, 1), Date.UTC(2026, 5, 20))

/** Any lesson trigger with a random context, guards passing or not. */
export const arbLessonCommand = (): fc.Arbitrary<LessonCommand> =>
  fc.oneof(
    fc.constant<LessonCommand>({ trigger: 'create', context: {} }),
    fc
      .record({ now: arbNear(), originalStart: arbNear(), proposedStart: arbNear(), proposedFinish: arbNear() })
      .map((context): LessonCommand => ({ trigger: 'propose_reschedule', context })),
    fc.record({ now: arbNear(), expiresAt: arbNear() }).map((context): LessonCommand => ({ trigger: 'approve', context })),
    fc.constant<LessonCommand>({ trigger: 'decline', context: {} }),
    fc.record({ now: arbNear(), expiresAt: arbNear() }).map((context): LessonCommand => ({ trigger: 'expire', context })),
    fc.constant<LessonCommand>({ trigger: 'cancel', context: {} }),
    fc.constant<LessonCommand>({ trigger: 'expire_hold', context: {} }),
  )

/** Any booking trigger with a random, internally consistent context (refund <= paid). */
export const arbBookingCommand = (): fc.Arbitrary<BookingCommand> =>
  fc.oneof(
    fc.constant<BookingCommand>({ trigger: 'create', context: {} }),
    fc
      .record({ capture: fc.constantFrom('manual' as const, 'immediate' as const), lessonState: arbLessonState() })
      .map((context): BookingCommand => ({ trigger: 'pay', context })),
    fc.constant<BookingCommand>({ trigger: 'capture', context: {} }),
    fc
      .tuple(fc.integer({ min: 0, max: 100_000 }), fc.double({ min: 0, max: 1, noNaN: true }), arbLessonState())
      .map(([paidPence, share, lessonState]): BookingCommand => ({
        trigger: 'cancel',
        context: { paidPence, refundPence: Math.floor(paidPence * share), lessonState },
      })),
    fc
      .record({ now: arbNear(), createdAt: arbNear(), lessonState: arbLessonState() })
      .map((context): BookingCommand => ({ trigger: 'expire_hold', context })),
  )

// The command types pair each trigger with its context; the machines' generic signatures
// cannot see through the union, so these two helpers spell the pairing out once.
export const applyLessonCommand = (from: LessonState | 'NEW', command: LessonCommand) =>
  transitionLesson(from, command.trigger, command.context as never)

export const applyBookingCommand = (from: BookingState | 'NEW', command: BookingCommand) =>
  transitionBooking(from, command.trigger, command.context as never)
