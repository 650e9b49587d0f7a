import { describe, expect, it } from 'vitest'
import { TEST_CARDS, bookingWorld } from '@tutoring/testkit'
import type { PaymentProcessor } from '../payments'
import { createBooking } from '../booking'
import { changePaymentMethod } from './change-payment-method'
import { payBooking } from './pay-booking'

const HOUR = 3_600_000

describe('changing the card of a payment waiting for 3-D Secure', () => {
  it('holds the booker once when two card changes of one payment run at once (issue 19 model)', async () => {
    const world = bookingWorld('2026-06-01T08:00:00Z')
    const { teach } = world.addTutor()
    const student = world.addStudent()
    const start = new Date('2026-06-03T09:00:00Z')
    const { booking } = (
      await createBooking(world.deps, student, {
        teachId: teach.id,
        subjectLevelId: 1,
        examBoardId: null,
        start,
        finish: new Date(start.getTime() + HOUR),
        lessonType: 'online',
        childIds: [],
        address: null,
        coupon: null,
      })
    )._unsafeUnwrap()
    const waiting = (await payBooking(world.deps, student, { bookingId: booking.id, paymentMethod: TEST_CARDS.threeDSecure, coupon: null }))._unsafeUnwrap().payment
    // Each authorisation is made at once; its answer comes back when the test says.
    const answers: Array<() => void> = []
    const processor: PaymentProcessor = {
      ...world.processor,
      createPaymentIntent: async (input) => {
        const answer = await world.processor.createPaymentIntent(input)
        await new Promise<void>((resolve) => answers.push(resolve))
        return answer
      },
    }
    const deps = { ...world.deps, processor }
    const changes = [TEST_CARDS.visa, 'pm_card_mastercard'].map((card) => changePaymentMethod(deps, student, { paymentId: waiting.id, paymentMethod: card }))
    while (answers.length < 2) await new Promise((resolve) => setImmediate(resolve))
    // One answer recorded, then the other, as the booking's lock orders them.
    answers[1]!()
    await changes[1]
    answers[0]!()
    await changes[0]
    await world.drainProcessorSync()
    expect(world.booking(booking.id)!.booking.state).toBe('REQUIRES_CAPTURE')
    const held = world.processor.state.intents.filter((pi) => pi.status === 'requires_capture')
    expect(held.map((pi) => pi.id)).toEqual([world.booking(booking.id)!.payment!.intentId])
  })
})
