import { describe, expect, it } from 'vitest'
import { TEST_CARDS, bookingWorld } from '@tutoring/testkit'
import { cancelBooking, createBooking } from '../booking'
import { payBooking } from './pay-booking'

const NOW = '2026-06-01T08:00:00Z'

async function booked(options: { pay?: boolean } = {}) {
  const world = bookingWorld(NOW)
  const { tutor, teach } = world.addTutor()
  const student = world.addStudent()
  const created = (
    await createBooking(world.deps, student, {
      teachId: teach.id,
      subjectLevelId: 1,
      examBoardId: null,
      start: new Date('2026-06-03T09:00:00Z'),
      finish: new Date('2026-06-03T10:00:00Z'),
      lessonType: 'online',
      childIds: [],
      address: null,
      coupon: null,
    })
  )._unsafeUnwrap()
  const bookingId = created.booking.id
  if (options.pay) (await payBooking(world.deps, student, { bookingId, paymentMethod: TEST_CARDS.visa, coupon: null }))._unsafeUnwrap()
  return { world, tutor, student, bookingId, lessonId: created.lesson.id }
}

const syncs = (world: Awaited<ReturnType<typeof booked>>['world']) =>
  world.state.outbox.flatMap((m) => (m.kind === 'processor_sync' ? [{ topic: m.topic, data: m.data }] : []))

describe('cancelling a booking', () => {
  it("gives a customer cancelling a day ahead all the uncaptured authorisation back, through the outbox", async () => {
    const { world, student, tutor, bookingId } = await booked({ pay: true })
    const after = (await cancelBooking(world.deps, student, { bookingId }))._unsafeUnwrap()
    expect(after.lesson.state).toBe('CANCELLED')
    expect(after.booking).toMatchObject({ state: 'REFUNDED', refundedPence: 2750 })
    expect(syncs(world)).toEqual([{ topic: 'payment.cancel', data: { paymentId: after.payment!.id, amountPence: null } }])
    const mailed = world.state.outbox.flatMap((m) => (m.kind === 'email' ? [m.to] : []))
    expect(mailed.sort()).toEqual([student.email, tutor.email].sort())
  })

  it('keeps half under a day before the start, but a tutor always refunds in full', async () => {
    const late = await booked({ pay: true })
    late.world.clock.set('2026-06-02T12:00:00Z')
    const byCustomer = (await cancelBooking(late.world.deps, late.student, { bookingId: late.bookingId }))._unsafeUnwrap()
    expect(byCustomer.booking).toMatchObject({ state: 'PARTIAL_REFUNDED', refundedPence: 1375 })

    const tutorCancels = await booked({ pay: true })
    tutorCancels.world.clock.set('2026-06-02T12:00:00Z')
    const byTutor = (await cancelBooking(tutorCancels.world.deps, tutorCancels.tutor, { lessonId: tutorCancels.lessonId }))._unsafeUnwrap()
    expect(byTutor.booking).toMatchObject({ state: 'REFUNDED', refundedPence: 2750 })
  })

  it('just cancels a booking never paid: the lesson closes, the booking REFUNDED with nothing refunded', async () => {
    const { world, student, bookingId } = await booked()
    const after = (await cancelBooking(world.deps, student, { bookingId }))._unsafeUnwrap()
    expect(after.lesson.state).toBe('CANCELLED')
    expect(after.booking).toMatchObject({ state: 'REFUNDED', refundedPence: 0 })
    expect(syncs(world)).toEqual([])
  })

  it('hides the booking from anyone not a party (NotFound) and refuses a second cancel', async () => {
    const { world, student, bookingId } = await booked({ pay: true })
    expect((await cancelBooking(world.deps, world.addStudent(), { bookingId }))._unsafeUnwrapErr()).toEqual({ type: 'NotFound', resource: 'booking' })
    ;(await cancelBooking(world.deps, student, { bookingId }))._unsafeUnwrap()
    expect((await cancelBooking(world.deps, student, { bookingId }))._unsafeUnwrapErr().type).toBe('InvalidStateTransition')
  })
})
