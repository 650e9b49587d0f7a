import { describe, expect, it } from 'vitest'
import { TEST_CARDS, bookingWorld } from '@tutoring/testkit'
import { cancelBooking, createBooking } from '../booking'
import { getPaymentStatus } from './get-payment-status'
import { payBooking } from './pay-booking'
import { recordPaymentEvent } from './record-payment-event'
import { releasePayment } from './release-payment'
import { runDuePayments } from './run-due-payments'

const NOW = '2026-06-01T08:00:00Z'
const HOUR = 3_600_000

/** A student's unpaid online booking of `day` 09:00-10:00 UTC with a £25-an-hour tutor (total £27.50). */
async function booked(day = '2026-06-03') {
  const world = bookingWorld(NOW)
  const { tutor, teach } = world.addTutor()
  const student = world.addStudent()
  const start = new Date(`${day}T09:00:00Z`)
  const booking = (
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
  return { world, tutor, student, bookingId: booking.booking.id, start }
}

describe('paying for a booking', () => {
  it('authorises a lesson within six days now: the booking waits for capture after the finish', async () => {
    const { world, student, bookingId } = await booked()
    const paid = (await payBooking(world.deps, student, { bookingId, paymentMethod: TEST_CARDS.visa, coupon: null }))._unsafeUnwrap()
    expect(paid.booking.booking).toMatchObject({ state: 'REQUIRES_CAPTURE', holdExpiresAt: null })
    expect(paid.payment).toMatchObject({ status: 'requires_capture', amountPence: 2750, captureAt: paid.booking.lesson.finish, clientSecret: expect.any(String) })
    expect(world.processor.state.calls).toEqual([{ call: 'createPaymentIntent', idempotencyKey: `payment-${paid.payment.id}`, amountPence: 2750 }])
    expect(paid.booking.events.map((e) => e.kind)).toEqual(['booked', 'authorized'])
  })

  it('saves the card of a lesson more than six days out and schedules its authorisation six days before', async () => {
    const { world, student, bookingId, start } = await booked('2026-06-12')
    const paid = (await payBooking(world.deps, student, { bookingId, paymentMethod: TEST_CARDS.visa, coupon: null }))._unsafeUnwrap()
    const setup = world.processor.state.setups
    expect(setup).toEqual([expect.objectContaining({ status: 'succeeded', paymentMethodId: TEST_CARDS.visa })])
    expect(paid.payment).toMatchObject({ status: 'scheduled', authorizeAt: new Date(start.getTime() - 6 * 24 * HOUR), clientSecret: setup[0]!.clientSecret })
    expect(paid.booking.booking.state).toBe('REQUIRES_CAPTURE')
    expect(world.processor.state.calls).toEqual([])
  })

  it('answers a declined card with PaymentFailed and leaves the booking payable', async () => {
    const { world, student, bookingId } = await booked()
    expect((await payBooking(world.deps, student, { bookingId, paymentMethod: TEST_CARDS.declined, coupon: null }))._unsafeUnwrapErr()).toEqual({
      type: 'PaymentFailed',
      reason: 'Your card was declined.',
    })
    expect(world.booking(bookingId)!.booking.state).toBe('AWAITING_PAYMENT')
    expect(world.booking(bookingId)!.payment).toMatchObject({ status: 'requires_payment_method', lastError: 'Your card was declined.' })
    const again = (await payBooking(world.deps, student, { bookingId, paymentMethod: TEST_CARDS.visa, coupon: null }))._unsafeUnwrap()
    expect(again.booking.booking.state).toBe('REQUIRES_CAPTURE')
  })

  it('uses the saved default card when no payment method is given, and asks for one without it', async () => {
    const { world, student, bookingId } = await booked()
    expect((await payBooking(world.deps, student, { bookingId, paymentMethod: null, coupon: null }))._unsafeUnwrapErr()).toEqual({
      type: 'ValidationFailed',
      errors: { payment_method: ['is required: you have no saved card'] },
    })
    world.saveDefaultCard(student.id, TEST_CARDS.visa)
    expect((await payBooking(world.deps, student, { bookingId, paymentMethod: null, coupon: null }))._unsafeUnwrap().payment.paymentMethodId).toBe(TEST_CARDS.visa)
  })

  it('lets only the booker pay: the tutor is Forbidden, a stranger finds nothing', async () => {
    const { world, tutor, bookingId } = await booked()
    const card = { bookingId, paymentMethod: TEST_CARDS.visa, coupon: null }
    expect((await payBooking(world.deps, tutor, card))._unsafeUnwrapErr().type).toBe('Forbidden')
    expect((await payBooking(world.deps, world.addStudent(), card))._unsafeUnwrapErr()).toEqual({ type: 'NotFound', resource: 'booking' })
  })

  it('refuses to pay once the hold lapsed', async () => {
    const { world, student, bookingId } = await booked()
    world.clock.advance(16 * 60_000)
    expect((await payBooking(world.deps, student, { bookingId, paymentMethod: TEST_CARDS.visa, coupon: null }))._unsafeUnwrapErr()).toMatchObject({
      type: 'InvalidStateTransition',
      from: 'hold_expired',
    })
  })

  it('shows the client secret to the payer only, and moves the booking on once 3-D Secure is done', async () => {
    const { world, student, bookingId } = await booked()
    const pending = (await payBooking(world.deps, student, { bookingId, paymentMethod: TEST_CARDS.threeDSecure, coupon: null }))._unsafeUnwrap()
    expect(pending.payment).toMatchObject({ status: 'requires_action', redirectUrl: expect.stringContaining('/3ds/') })
    expect(pending.booking.booking.state).toBe('AWAITING_PAYMENT')
    expect((await getPaymentStatus(world.deps, undefined, pending.payment.id))._unsafeUnwrap().owner).toBe(false)

    Object.assign(world.processor.state.intents[0]!, { status: 'requires_capture' })
    const view = (await getPaymentStatus(world.deps, student, pending.payment.id))._unsafeUnwrap()
    expect(view).toMatchObject({ owner: true, payment: { status: 'requires_capture' } })
    expect(world.booking(bookingId)!.booking.state).toBe('REQUIRES_CAPTURE')
  })
})

describe('releasing an attempt (DELETE)', () => {
  it('keeps the cancel of its intent queued when the processor refuses it, so a 3-D Secure step finished later holds nothing (issue 19 model)', async () => {
    const { world, student, bookingId } = await booked()
    const pending = (await payBooking(world.deps, student, { bookingId, paymentMethod: TEST_CARDS.threeDSecure, coupon: null }))._unsafeUnwrap()
    world.processor.fail('cancelPaymentIntent', 'refuse')
    await expect(releasePayment(world.deps, student, pending.payment.id)).rejects.toThrow('refused')
    world.processor.authenticate(pending.payment.intentId!)
    for (const event of world.processor.state.events) await recordPaymentEvent(world.deps, event)
    await world.drainProcessorSync()
    expect(world.processor.state.intents.map((pi) => pi.status)).toEqual(['canceled'])
  })
})

describe('the payment webhook', () => {
  const event = (id: string, type: string, intentId: string, status: 'requires_capture' | 'succeeded', received = 0) => ({
    id,
    type,
    intent: { id: intentId, status, amountReceivedPence: received, lastError: null },
  })

  it('moves an authorised booking to REQUIRES_CAPTURE and a captured one to PAYED, each on the timeline, once', async () => {
    const { world, student, bookingId } = await booked()
    const pending = (await payBooking(world.deps, student, { bookingId, paymentMethod: TEST_CARDS.threeDSecure, coupon: null }))._unsafeUnwrap()
    const intentId = pending.payment.intentId!
    const authorised = event('evt_1', 'payment_intent.amount_capturable_updated', intentId, 'requires_capture')
    expect((await recordPaymentEvent(world.deps, authorised))._unsafeUnwrap()).toEqual({ outcome: 'handled', bookingState: 'REQUIRES_CAPTURE' })
    expect((await recordPaymentEvent(world.deps, authorised))._unsafeUnwrap()).toEqual({ outcome: 'duplicate' })
    const captured = event('evt_2', 'payment_intent.succeeded', intentId, 'succeeded', 2750)
    expect((await recordPaymentEvent(world.deps, captured))._unsafeUnwrap()).toEqual({ outcome: 'handled', bookingState: 'PAYED' })
    const after = world.booking(bookingId)!
    expect(after.payment).toMatchObject({ status: 'succeeded', capturedPence: 2750 })
    expect(after.events.map((e) => e.kind)).toEqual(['booked', 'payment_requires_action', 'payment.amount_capturable_updated', 'payment.succeeded'])
  })

  it('ignores other event types and payments it does not know', async () => {
    const { world } = await booked()
    expect((await recordPaymentEvent(world.deps, { id: 'evt_1', type: 'customer.created' }))._unsafeUnwrap()).toEqual({ outcome: 'ignored', reason: 'unknown_type' })
    expect((await recordPaymentEvent(world.deps, event('evt_2', 'payment_intent.succeeded', 'pi_unknown', 'succeeded')))._unsafeUnwrap()).toEqual({
      outcome: 'ignored',
      reason: 'unknown_payment',
    })
  })

  it('never lets a late refund event shrink the refunded total', async () => {
    const { world, student, bookingId } = await booked()
    const paid = (await payBooking(world.deps, student, { bookingId, paymentMethod: TEST_CARDS.visa, coupon: null }))._unsafeUnwrap()
    const refund = (id: string, amount: number) => ({ id, type: 'charge.refunded', refund: { paymentIntentId: paid.payment.intentId!, amountRefundedPence: amount, amountCapturedPence: 3300 } })
    await recordPaymentEvent(world.deps, refund('evt_1', 2000))
    await recordPaymentEvent(world.deps, refund('evt_2', 1000))
    expect(world.booking(bookingId)!.payment!.refundedPence).toBe(2000)
  })
})

describe('due payments', () => {
  it('captures an authorised payment after the lesson: the booking is PAYED', async () => {
    const { world, student, bookingId } = await booked()
    ;(await payBooking(world.deps, student, { bookingId, paymentMethod: TEST_CARDS.visa, coupon: null }))._unsafeUnwrap()
    expect(await runDuePayments(world.deps)).toEqual({ authorized: 0, failed: 0, captured: 0, skipped: 0, retrying: 0 })
    world.clock.set('2026-06-03T10:00:00Z')
    expect(await runDuePayments(world.deps)).toEqual({ authorized: 0, failed: 0, captured: 1, skipped: 0, retrying: 0 })
    expect(world.booking(bookingId)!.booking.state).toBe('PAYED')
    expect(world.booking(bookingId)!.payment).toMatchObject({ status: 'succeeded', capturedPence: 2750, captureAt: null })
  })

  it('keeps a captured payment whole when a second pay of the same attempt is answered after the capture', async () => {
    const { world, student, bookingId } = await booked()
    // The first pay's processor call is in flight until the lesson was captured.
    let release = () => {}
    let reached = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    const inFlight = new Promise<void>((resolve) => (reached = resolve))
    const processor = world.deps.processor
    const createPaymentIntent: typeof processor.createPaymentIntent = async (input) => {
      reached()
      await released
      return processor.createPaymentIntent(input)
    }
    const late = payBooking({ ...world.deps, processor: { ...processor, createPaymentIntent } }, student, { bookingId, paymentMethod: TEST_CARDS.visa, coupon: null })
    await inFlight
    const first = (await payBooking(world.deps, student, { bookingId, paymentMethod: TEST_CARDS.visa, coupon: null }))._unsafeUnwrap()
    world.clock.set('2026-06-03T10:00:00Z')
    expect((await runDuePayments(world.deps)).captured).toBe(1)
    release()
    const answered = (await late)._unsafeUnwrap()
    await world.drainProcessorSync()
    expect(answered.payment).toMatchObject({ id: first.payment.id, status: 'succeeded' })
    expect(world.booking(bookingId)!.booking.state).toBe('PAYED')
    expect(world.booking(bookingId)!.payment).toMatchObject({ status: 'succeeded', capturedPence: 2750, refundedPence: 0 })
    expect(world.processor.state.calls.filter((c) => c.call === 'refundPayment')).toEqual([])
  })

  it('authorises a scheduled payment off-session when its day comes', async () => {
    const { world, student, bookingId } = await booked('2026-06-12')
    ;(await payBooking(world.deps, student, { bookingId, paymentMethod: TEST_CARDS.visa, coupon: null }))._unsafeUnwrap()
    world.clock.set('2026-06-06T09:00:00Z')
    expect(await runDuePayments(world.deps)).toMatchObject({ authorized: 1 })
    expect(world.booking(bookingId)!.payment).toMatchObject({ status: 'requires_capture', captureAt: new Date('2026-06-12T10:00:00Z') })
  })

  it('captures after the lesson a scheduled authorisation whose answer was lost, once its webhook tells (issue 19 model)', async () => {
    const { world, student, bookingId } = await booked('2026-06-12')
    ;(await payBooking(world.deps, student, { bookingId, paymentMethod: TEST_CARDS.visa, coupon: null }))._unsafeUnwrap()
    world.clock.set('2026-06-06T09:00:00Z')
    world.processor.fail('createPaymentIntent', 'timeout')
    expect(await runDuePayments(world.deps)).toMatchObject({ authorized: 0, retrying: 1 })
    const [authorised] = world.processor.state.events
    expect((await recordPaymentEvent(world.deps, authorised!))._unsafeUnwrap()).toMatchObject({ outcome: 'handled', bookingState: 'REQUIRES_CAPTURE' })
    expect(world.booking(bookingId)!.payment).toMatchObject({ status: 'requires_capture', captureAt: new Date('2026-06-12T10:00:00Z') })
    world.clock.set('2026-06-12T11:00:00Z')
    expect(await runDuePayments(world.deps)).toMatchObject({ captured: 1 })
    expect(world.booking(bookingId)!.booking.state).toBe('PAYED')
  })

  it('keeps where the money of an off-session authorisation goes when its answer was lost: the tutor is paid once it is captured (issue 19 model)', async () => {
    const { world, student, tutor, bookingId } = await booked('2026-06-12')
    ;(await payBooking(world.deps, student, { bookingId, paymentMethod: TEST_CARDS.visa, coupon: null }))._unsafeUnwrap()
    world.clock.set('2026-06-06T09:00:00Z')
    world.processor.fail('createPaymentIntent', 'timeout')
    await runDuePayments(world.deps)
    await recordPaymentEvent(world.deps, world.processor.state.events[0]!)
    world.clock.set('2026-06-12T11:00:00Z')
    expect(await runDuePayments(world.deps)).toMatchObject({ captured: 1 })
    const payment = world.booking(bookingId)!.payment!
    // No payout account: the charge goes to the platform and the tutor's share waits for a transfer.
    expect(payment.routing).toEqual({ destinationAccountId: null, applicationFeePence: 250, transferGroup: `booking-${bookingId}` })
    expect(world.state.tutorTransfers).toEqual([expect.objectContaining({ paymentId: payment.id, tutorId: tutor.id, status: 'waiting' })])
  })

  it('releases a scheduled authorisation whose answer was lost when the booking is cancelled before its webhook comes (issue 19 model)', async () => {
    const { world, student, bookingId } = await booked('2026-06-12')
    ;(await payBooking(world.deps, student, { bookingId, paymentMethod: TEST_CARDS.visa, coupon: null }))._unsafeUnwrap()
    world.clock.set('2026-06-06T09:00:00Z')
    world.processor.fail('createPaymentIntent', 'timeout')
    await runDuePayments(world.deps)
    ;(await cancelBooking(world.deps, student, { bookingId }))._unsafeUnwrap()
    for (const event of world.processor.state.events) await recordPaymentEvent(world.deps, event)
    await world.drainProcessorSync()
    expect(world.processor.state.intents.map((pi) => pi.status)).toEqual(['canceled'])
  })

  it('cancels the lesson and tells both parties when the off-session authorisation is declined', async () => {
    const { world, student, tutor, bookingId } = await booked('2026-06-12')
    ;(await payBooking(world.deps, student, { bookingId, paymentMethod: TEST_CARDS.visa, coupon: null }))._unsafeUnwrap()
    world.state.payments[0]!.paymentMethodId = TEST_CARDS.declined
    world.clock.set('2026-06-06T09:00:00Z')
    expect(await runDuePayments(world.deps)).toMatchObject({ failed: 1 })
    const after = world.booking(bookingId)!
    expect(after.lesson.state).toBe('CANCELLED')
    expect(after.booking.state).toBe('REFUNDED')
    expect(world.state.outbox.filter((m) => m.kind === 'email').map((m) => m.kind === 'email' && m.to).sort()).toEqual([student.email, tutor.email].sort())
  })
})
