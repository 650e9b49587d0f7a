import { describe, expect, it } from 'vitest'
import { TEST_CARDS, bookingWorld } from '@tutoring/testkit'
import type { PaymentProcessor } from '../payments'
import { approveLessonReschedule, createBooking, proposeLessonReschedule } from '../booking'
import { changePaymentMethod } from './change-payment-method'
import { getPaymentStatus } from './get-payment-status'
import { payBooking } from './pay-booking'
import { recordPaymentEvent } from './record-payment-event'
import { releasePayment } from './release-payment'
import { runDuePayments } from './run-due-payments'

const HOUR = 3_600_000

/**
 * A near lesson's payment waiting for 3-D Secure whose card is changed twice at once, the
 * second change's answer recorded first (as the booking's lock may order them).
 */
async function twoChangesAtOnce(cards: [string, string]) {
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
  const changes = cards.map((card) => changePaymentMethod(deps, student, { paymentId: waiting.id, paymentMethod: card }))
  while (answers.length < 2) await new Promise((resolve) => setImmediate(resolve))
  answers[1]!()
  await changes[1]
  answers[0]!()
  await changes[0]
  await world.drainProcessorSync()
  const after = world.booking(booking.id)!
  return { world, after }
}

describe('changing the card of a payment twice at once (issue 19 model)', () => {
  it('holds the booker once when both changes authorise', async () => {
    const { world, after } = await twoChangesAtOnce([TEST_CARDS.visa, 'pm_card_mastercard'])
    expect(after.booking.state).toBe('REQUIRES_CAPTURE')
    const held = world.processor.state.intents.filter((pi) => pi.status === 'requires_capture')
    expect(held.map((pi) => pi.id)).toEqual([after.payment!.intentId])
    // Still captured after the lesson: the other intent's release left the payment's times alone.
    expect(after.payment!.captureAt).toEqual(after.lesson.finish)
  })

  it('keeps the authorisation the booking rests on when the other change asks for 3-D Secure, and cancels that one', async () => {
    const { world, after } = await twoChangesAtOnce([TEST_CARDS.threeDSecure, TEST_CARDS.visa])
    expect(after.booking.state).toBe('REQUIRES_CAPTURE')
    const held = world.processor.state.intents.find((pi) => pi.status === 'requires_capture')
    expect(after.payment).toMatchObject({ status: 'requires_capture', intentId: held?.id })
    const byStatus = world.processor.state.intents.map((pi) => pi.status).sort()
    // The first pay's 3-D Secure intent and the second change's are cancelled.
    expect(byStatus).toEqual(['canceled', 'canceled', 'requires_capture'])
  })

  it('keeps the authorisation the booking rests on when the other change is declined', async () => {
    const { world, after } = await twoChangesAtOnce([TEST_CARDS.declined, TEST_CARDS.visa])
    const held = world.processor.state.intents.find((pi) => pi.status === 'requires_capture')
    expect(after.booking.state).toBe('REQUIRES_CAPTURE')
    expect(after.payment).toMatchObject({ status: 'requires_capture', intentId: held?.id })
  })
})

/** A near lesson's payment waiting for 3-D Secure: its card changed while the return page reads it, then the customer finishes the old step. */
async function oldStepFinishedAfterChange(card: string) {
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
  // The return page reads the payment, the customer changes the card, then finishes the old step.
  const seen = world.processor.retrievePaymentIntent.bind(world.processor)
  let finished = false
  const deps = {
    ...world.deps,
    processor: {
      ...world.processor,
      retrievePaymentIntent: async (id: string) => {
        while (!finished) await new Promise((resolve) => setImmediate(resolve))
        return seen(id)
      },
    },
  }
  const returned = getPaymentStatus(deps, student, waiting.id)
  ;(await changePaymentMethod(world.deps, student, { paymentId: waiting.id, paymentMethod: card }))._unsafeUnwrap()
  world.processor.authenticate(waiting.intentId!)
  finished = true
  await returned
  for (const event of world.processor.state.events) await recordPaymentEvent(world.deps, event)
  await world.drainProcessorSync()
  return { world, booking }
}

describe('changing the card of a payment whose 3-D Secure step the customer finishes meanwhile (issue 19 model)', () => {
  it('holds the booker once: the step left behind is cancelled and its events never move the payment', async () => {
    const { world, booking } = await oldStepFinishedAfterChange(TEST_CARDS.visa)
    const held = world.processor.state.intents.filter((pi) => pi.status === 'requires_capture')
    expect(held).toHaveLength(1)
    expect(world.booking(booking.id)!.payment).toMatchObject({ status: 'requires_capture', intentId: held[0]!.id })
  })

  it('holds nothing when the new card waits for its own step: the answer of the old step, read late, never moves the payment', async () => {
    const { world, booking } = await oldStepFinishedAfterChange(TEST_CARDS.threeDSecure)
    expect(world.processor.state.intents.filter((pi) => pi.status === 'requires_capture')).toEqual([])
    const after = world.booking(booking.id)!
    expect(after.booking.state).toBe('AWAITING_PAYMENT')
    expect(after.payment).toMatchObject({ status: 'requires_action', intentId: world.processor.state.intents.find((pi) => pi.status === 'requires_action')?.id })
  })
})

describe('an intent a card change left behind, authorised later (issue 19 model)', () => {
  it('is never taken for the payment, even once the payment charges that card again: it is cancelled and the booking rests on its schedule', async () => {
    const world = bookingWorld('2026-06-01T08:00:00Z')
    const { tutor, teach } = world.addTutor()
    const student = world.addStudent()
    const start = new Date('2026-06-05T09:00:00Z')
    const { booking, lesson } = (
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
    const waiting = (await payBooking(world.deps, student, { bookingId: booking.id, paymentMethod: TEST_CARDS.authenticationRequired, coupon: null }))._unsafeUnwrap().payment
    // The lesson moves eleven days out; the booker changes the card (now saved for later), then back.
    const moved = new Date('2026-06-12T09:00:00Z')
    ;(await proposeLessonReschedule(world.deps, student, { lessonId: lesson.id, start: moved, finish: new Date(moved.getTime() + HOUR) }))._unsafeUnwrap()
    ;(await approveLessonReschedule(world.deps, tutor, lesson.id))._unsafeUnwrap()
    ;(await changePaymentMethod(world.deps, student, { paymentId: waiting.id, paymentMethod: TEST_CARDS.visa }))._unsafeUnwrap()
    ;(await changePaymentMethod(world.deps, student, { paymentId: waiting.id, paymentMethod: TEST_CARDS.authenticationRequired }))._unsafeUnwrap()
    // The customer finishes the first intent's bank check after all; its event arrives.
    world.processor.authenticate(waiting.intentId!)
    for (const event of world.processor.state.events) await recordPaymentEvent(world.deps, event)
    await world.drainProcessorSync()
    const after = world.booking(booking.id)!
    expect(after.booking.state).toBe('REQUIRES_CAPTURE')
    expect(after.payment).toMatchObject({ status: 'scheduled', intentId: null })
    expect(world.processor.state.intents.find((pi) => pi.id === waiting.intentId)?.status).toBe('canceled')
  })
})

describe('the same card given twice to a payment waiting for 3-D Secure (issue 19 model)', () => {
  it('makes a new intent the second time, so the bank check passed on it carries the booking', async () => {
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
    const declined = (await payBooking(world.deps, student, { bookingId: booking.id, paymentMethod: TEST_CARDS.declined, coupon: null }))._unsafeUnwrapErr()
    expect(declined.type).toBe('PaymentFailed')
    const paymentId = world.booking(booking.id)!.payment!.id
    for (let i = 0; i < 2; i++) (await changePaymentMethod(world.deps, student, { paymentId, paymentMethod: TEST_CARDS.threeDSecure }))._unsafeUnwrap()
    const current = world.booking(booking.id)!.payment!
    world.processor.authenticate(current.intentId!)
    ;(await getPaymentStatus(world.deps, student, paymentId))._unsafeUnwrap()
    await world.drainProcessorSync()
    const after = world.booking(booking.id)!
    expect(after.booking.state).toBe('REQUIRES_CAPTURE')
    expect(world.processor.state.intents.find((pi) => pi.id === after.payment!.intentId)?.status).toBe('requires_capture')
  })
})

/** A near lesson's first pay, whose call authorises the card at the processor but whose answer is lost. */
async function unansweredPay() {
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
  world.processor.fail('createPaymentIntent', 'timeout')
  await expect(payBooking(world.deps, student, { bookingId: booking.id, paymentMethod: TEST_CARDS.visa, coupon: null })).rejects.toThrow()
  const unanswered = world.booking(booking.id)!.payment!
  expect(unanswered).toMatchObject({ status: 'requires_confirmation', intentId: null })
  // Each call below is made at once; its answer comes back when the test says.
  const gated = () => {
    const answers: Array<() => void> = []
    const processor: PaymentProcessor = {
      ...world.processor,
      createPaymentIntent: async (input) => {
        const answer = await world.processor.createPaymentIntent(input)
        await new Promise<void>((resolve) => answers.push(resolve))
        return answer
      },
    }
    return { deps: { ...world.deps, processor }, answers }
  }
  const until = async (answers: unknown[]) => {
    while (answers.length === 0) await new Promise((resolve) => setImmediate(resolve))
  }
  return { world, student, booking, unanswered, first: world.processor.state.intents[0]!, gated, until }
}

describe('a card change of a payment whose first call went unanswered (issue 19 model)', () => {
  it('racing the booker paying it again, never leaves the booking on the intent the change voids: the replayed answer of that intent is released', async () => {
    const { world, student, booking, unanswered, first, gated, until } = await unansweredPay()
    // The booker pays again: the same attempt, whose key replays the first call's answer (held).
    const pay = gated()
    const paying = payBooking(pay.deps, student, { bookingId: booking.id, paymentMethod: TEST_CARDS.visa, coupon: null })
    await until(pay.answers)
    // Meanwhile the card is changed: the retry's own call is made.
    const change = gated()
    const changing = changePaymentMethod(change.deps, student, { paymentId: unanswered.id, paymentMethod: 'pm_card_mastercard' })
    await until(change.answers)
    // The replayed answer is recorded first, then the retry's.
    pay.answers[0]!()
    await paying
    change.answers[0]!()
    const changed = (await changing)._unsafeUnwrap()
    for (const event of world.processor.state.events) await recordPaymentEvent(world.deps, event)
    expect((await world.drainProcessorSync()).failing).toEqual([])

    const after = world.booking(booking.id)!
    // CONTRACT §17: the retried payment answers with its own id; CONTRACT §15: the booking rests on one live intent.
    expect(changed.id).toBe(unanswered.id)
    expect(after.booking.state).toBe('REQUIRES_CAPTURE')
    const held = world.processor.state.intents.filter((pi) => pi.status === 'requires_capture')
    expect(held.map((pi) => pi.id)).toEqual([after.payment!.intentId])
    expect(after.payment).toMatchObject({ id: unanswered.id, status: 'requires_capture' })
    expect(world.processor.state.intents.find((pi) => pi.id === first.id)?.status).toBe('canceled')
  })

  it('with the same card, never takes the first intent from its event arriving while the retry is in flight', async () => {
    const { world, student, booking, unanswered, first, gated, until } = await unansweredPay()
    const change = gated()
    const changing = changePaymentMethod(change.deps, student, { paymentId: unanswered.id, paymentMethod: TEST_CARDS.visa })
    await until(change.answers)
    // The first intent's authorisation event arrives now, found by the payment id it carries.
    const authorised = world.processor.state.events.find((e) => e.type === 'payment_intent.amount_capturable_updated' && e.intent?.id === first.id)!
    await recordPaymentEvent(world.deps, authorised)
    change.answers[0]!()
    ;(await changing)._unsafeUnwrap()
    for (const event of world.processor.state.events) await recordPaymentEvent(world.deps, event)
    expect((await world.drainProcessorSync()).failing).toEqual([])

    const after = world.booking(booking.id)!
    expect(after.booking.state).toBe('REQUIRES_CAPTURE')
    const held = world.processor.state.intents.filter((pi) => pi.status === 'requires_capture')
    expect(held.map((pi) => pi.id)).toEqual([after.payment!.intentId])
    expect(world.processor.state.intents.find((pi) => pi.id === first.id)?.status).toBe('canceled')
  })
})

describe('a scheduled authorisation whose call went unanswered, its card changed, then the payment released (issue 19 model)', () => {
  it('voids the intent the call made, though its event no longer names the payment\'s card', async () => {
    const world = bookingWorld('2026-06-01T08:00:00Z')
    const { teach } = world.addTutor()
    const student = world.addStudent()
    const start = new Date('2026-06-12T09:00:00Z')
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
    const scheduled = (await payBooking(world.deps, student, { bookingId: booking.id, paymentMethod: TEST_CARDS.visa, coupon: null }))._unsafeUnwrap().payment
    expect(scheduled.status).toBe('scheduled')
    // Authorisation day: the processor holds the card, but the answer is lost.
    world.clock.set('2026-06-06T10:00:00Z')
    world.processor.fail('createPaymentIntent', 'timeout')
    await runDuePayments(world.deps)
    expect(world.processor.state.intents.map((pi) => pi.status)).toEqual(['requires_capture'])
    ;(await changePaymentMethod(world.deps, student, { paymentId: scheduled.id, paymentMethod: 'pm_card_mastercard' }))._unsafeUnwrap()
    ;(await releasePayment(world.deps, student, scheduled.id))._unsafeUnwrap()
    for (const event of world.processor.state.events) await recordPaymentEvent(world.deps, event)
    expect((await world.drainProcessorSync()).failing).toEqual([])
    expect(world.processor.state.intents.map((pi) => pi.status)).toEqual(['canceled'])
    expect(world.booking(booking.id)!.payment).toMatchObject({ id: scheduled.id, status: 'canceled' })
  })
})

describe('a scheduled authorisation whose call went unanswered, its card changed, then the due run tried again (issue 19 model)', () => {
  it('holds the booker once: the intent of the unanswered call is voided and the booking rests on the new card', async () => {
    const world = bookingWorld('2026-06-01T08:00:00Z')
    const { teach } = world.addTutor()
    const student = world.addStudent()
    const start = new Date('2026-06-12T09:00:00Z')
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
    const scheduled = (await payBooking(world.deps, student, { bookingId: booking.id, paymentMethod: TEST_CARDS.visa, coupon: null }))._unsafeUnwrap().payment
    // Authorisation day: the processor holds the card, but the answer is lost.
    world.clock.set('2026-06-06T10:00:00Z')
    world.processor.fail('createPaymentIntent', 'timeout')
    await runDuePayments(world.deps)
    const [lost] = world.processor.state.intents
    expect(lost?.status).toBe('requires_capture')
    ;(await changePaymentMethod(world.deps, student, { paymentId: scheduled.id, paymentMethod: 'pm_card_mastercard' }))._unsafeUnwrap()
    // The retry's time comes: a new intent on the new card, after the lesson a capture.
    world.clock.set('2026-06-06T12:00:00Z')
    await runDuePayments(world.deps)
    expect((await world.drainProcessorSync()).failing).toEqual([])
    world.clock.set('2026-06-12T11:00:00Z')
    await runDuePayments(world.deps)
    const after = world.booking(booking.id)!
    expect(after.booking.state).toBe('PAYED')
    expect(after.payment).toMatchObject({ id: scheduled.id, status: 'succeeded' })
    expect(after.payment!.intentId).not.toBe(lost!.id)
    const live = world.processor.state.intents.filter((pi) => pi.status === 'requires_capture' || pi.status === 'succeeded')
    expect(live.map((pi) => pi.id)).toEqual([after.payment!.intentId])
  })

  it('holds the booker once when the retry on the new card goes unanswered too: the first intent is voided all the same', async () => {
    const world = bookingWorld('2026-06-01T08:00:00Z')
    const { teach } = world.addTutor()
    const student = world.addStudent()
    const start = new Date('2026-06-12T09:00:00Z')
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
    const scheduled = (await payBooking(world.deps, student, { bookingId: booking.id, paymentMethod: TEST_CARDS.visa, coupon: null }))._unsafeUnwrap().payment
    world.clock.set('2026-06-06T10:00:00Z')
    world.processor.fail('createPaymentIntent', 'timeout')
    await runDuePayments(world.deps)
    ;(await changePaymentMethod(world.deps, student, { paymentId: scheduled.id, paymentMethod: 'pm_card_mastercard' }))._unsafeUnwrap()
    world.clock.set('2026-06-06T12:00:00Z')
    world.processor.fail('createPaymentIntent', 'timeout')
    await runDuePayments(world.deps)
    world.clock.set('2026-06-06T14:00:00Z')
    await runDuePayments(world.deps)
    expect((await world.drainProcessorSync()).failing).toEqual([])
    world.clock.set('2026-06-12T11:00:00Z')
    await runDuePayments(world.deps)
    const after = world.booking(booking.id)!
    expect(after.booking.state).toBe('PAYED')
    const live = world.processor.state.intents.filter((pi) => pi.status === 'requires_capture' || pi.status === 'succeeded')
    expect(live.map((pi) => pi.id)).toEqual([after.payment!.intentId])
  })
})
