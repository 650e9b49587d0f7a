import { describe, expect, it } from 'vitest'
import { bookingWorld } from '@tutoring/testkit'
import { createBooking, type CreateBookingInput } from './create-booking'

// Monday 1 June 2026, 09:00 in London (BST): the tutor's 09:00-17:00 London is 08:00-16:00 UTC.
const NOW = '2026-06-01T08:00:00Z'
const at = (iso: string) => new Date(iso)
const MINUTE = 60_000

function setUp() {
  const world = bookingWorld(NOW)
  const { tutor, teach } = world.addTutor()
  const student = world.addStudent()
  const input = (overrides: Partial<CreateBookingInput> = {}): CreateBookingInput => ({
    teachId: teach.id,
    subjectLevelId: 1,
    examBoardId: null,
    start: at('2026-06-03T09:00:00Z'),
    finish: at('2026-06-03T10:00:00Z'),
    lessonType: 'online',
    childIds: [],
    address: null,
    coupon: null,
    ...overrides,
  })
  return { world, tutor, teach, student, input }
}

describe('booking a lesson', () => {
  it('writes an ACTIVE lesson and an unpaid booking held for 15 minutes, priced from the teach', async () => {
    const { world, student, tutor, input } = setUp()
    const booked = (await createBooking(world.deps, student, input()))._unsafeUnwrap()
    expect(booked.booking).toMatchObject({ state: 'AWAITING_PAYMENT', userId: student.id, lessonPricePence: 2500, serviceFeePence: 250, totalPence: 2750 })
    expect(booked.booking.holdExpiresAt).toEqual(new Date(Date.parse(NOW) + 15 * MINUTE))
    expect(booked.lesson).toMatchObject({ state: 'ACTIVE', tutorId: tutor.id, studentId: student.id, lessonType: 'online', meetingUrl: expect.stringMatching(/^https:\/\/meet\.test\//) })
    expect(booked.events.map((e) => e.kind)).toEqual(['booked'])
  })

  it('prices a lesson by its length, and books any length availability offers', async () => {
    const { world, student, input } = setUp()
    const booked = (await createBooking(world.deps, student, input({ finish: at('2026-06-03T09:50:00Z') })))._unsafeUnwrap()
    expect(booked.booking).toMatchObject({ lessonPricePence: 2083, serviceFeePence: 208, totalPence: 2291 })
  })

  it('answers every field error at once, before the booking window', async () => {
    const { world, student, input } = setUp()
    const bad = input({ subjectLevelId: 9, examBoardId: 9, finish: at('2026-06-03T09:20:00Z'), childIds: [1], start: at('2026-06-30T09:00:00Z') })
    const refused = (await createBooking(world.deps, student, { ...bad, finish: new Date(bad.start.getTime() + 20 * MINUTE) }))._unsafeUnwrapErr()
    expect(refused).toEqual({
      type: 'ValidationFailed',
      errors: {
        subject_level_id: ['is not a level this teach covers'],
        exam_board_id: ['is not an exam board this teach covers'],
        finish: ['the lesson lasts a whole number of minutes from 30 to 120'],
        child_ids: ['only a parent books for children'],
      },
    })
  })

  it('answers NotFound for a teach nobody offers, and refuses tutors, who do not book', async () => {
    const { world, student, tutor, teach, input } = setUp()
    expect((await createBooking(world.deps, student, input({ teachId: 999 })))._unsafeUnwrapErr()).toEqual({ type: 'NotFound', resource: 'teach' })
    world.state.teaches[0]!.teach.enabled = false
    expect((await createBooking(world.deps, student, input({ teachId: teach.id })))._unsafeUnwrapErr().type).toBe('NotFound')
    world.state.teaches[0]!.teach.enabled = true
    expect((await createBooking(world.deps, tutor, input()))._unsafeUnwrapErr().type).toBe('Forbidden')
  })

  it.each([
    ['DBS pending', { verifications: { identity: 'PASS', dbs: 'PENDING', qualification: 'PASS' } }],
    ['identity failed', { verifications: { identity: 'FAIL', dbs: 'PASS', qualification: 'PASS' } }],
    ['qualification never submitted', { verifications: { identity: 'PASS', dbs: 'PASS', qualification: 'NONE' } }],
    ['a canceled subscription', { subscriptionStatus: 'canceled' }],
    ['no subscription', { subscriptionStatus: null }],
  ] as const)('answers NotFound, as for an unknown teach, for a tutor with %s', async (_, tutor) => {
    const world = bookingWorld(NOW)
    const { teach } = world.addTutor({ tutor })
    const student = world.addStudent()
    const refused = await createBooking(world.deps, student, {
      teachId: teach.id,
      subjectLevelId: 1,
      examBoardId: null,
      start: at('2026-06-03T09:00:00Z'),
      finish: at('2026-06-03T10:00:00Z'),
      lessonType: 'online',
      childIds: [],
      address: null,
      coupon: null,
    })
    expect(refused._unsafeUnwrapErr()).toEqual({ type: 'NotFound', resource: 'teach' })
    expect(world.state.bookings).toEqual([])
  })

  it('refuses a start more than 14 days ahead, or in the past, as booking_window_exceeded', async () => {
    const { world, student, input } = setUp()
    const late = (await createBooking(world.deps, student, input({ start: at('2026-06-16T09:00:00Z'), finish: at('2026-06-16T10:00:00Z') })))._unsafeUnwrapErr()
    expect(late).toEqual({ type: 'BookingWindowExceeded', firstDate: '2026-06-01', lastDate: '2026-06-15' })
    const past = (await createBooking(world.deps, student, input({ start: at('2026-06-01T07:00:00Z'), finish: at('2026-06-01T08:00:00Z') })))._unsafeUnwrapErr()
    expect(past.type).toBe('BookingWindowExceeded')
  })

  it('refuses a time availability would not offer, and a time already booked, as SlotUnavailable', async () => {
    const { world, student, input } = setUp()
    const offGrid = input({ start: at('2026-06-03T09:05:00Z'), finish: at('2026-06-03T10:05:00Z') })
    expect((await createBooking(world.deps, student, offGrid))._unsafeUnwrapErr().type).toBe('SlotUnavailable')
    const evening = input({ start: at('2026-06-03T16:00:00Z'), finish: at('2026-06-03T17:00:00Z') })
    expect((await createBooking(world.deps, student, evening))._unsafeUnwrapErr().type).toBe('SlotUnavailable')

    await createBooking(world.deps, student, input())
    const other = world.addStudent()
    const clash = input({ start: at('2026-06-03T09:30:00Z'), finish: at('2026-06-03T10:30:00Z') })
    expect((await createBooking(world.deps, other, clash))._unsafeUnwrapErr()).toEqual({ type: 'SlotUnavailable', start: clash.start, finish: clash.finish, conflicts: [clash.start] })
    expect(world.state.bookings).toHaveLength(1)
  })

  it('stops a fourth unpaid booking while three hold their slots', async () => {
    const { world, student, input } = setUp()
    for (const day of ['03', '04', '05']) {
      ;(await createBooking(world.deps, student, input({ start: at(`2026-06-${day}T09:00:00Z`), finish: at(`2026-06-${day}T10:00:00Z`) })))._unsafeUnwrap()
    }
    const fourth = await createBooking(world.deps, student, input({ start: at('2026-06-06T09:00:00Z'), finish: at('2026-06-06T10:00:00Z') }))
    expect(fourth._unsafeUnwrapErr()).toEqual({ type: 'TooManyPendingBookings', limit: 3 })
  })

  it('lets a lapsed unpaid hold give its time up to the next booker at once', async () => {
    const { world, student, input } = setUp()
    const first = (await createBooking(world.deps, student, input()))._unsafeUnwrap()
    world.clock.advance(16 * MINUTE)
    const second = (await createBooking(world.deps, world.addStudent(), input()))._unsafeUnwrap()
    expect(world.booking(first.booking.id)!.lesson.state).toBe('CANCELLED')
    expect(second.lesson.state).toBe('ACTIVE')
  })

  it('takes a coupon off the total and redeems it with the booking; an unknown one is CouponInvalid', async () => {
    const { world, student, input } = setUp()
    const coupon = world.addCoupon({ uid: 'TENOFF', discount: { kind: 'fixed', amountOffPence: 1000 } })
    const booked = (await createBooking(world.deps, student, input({ coupon: 'TENOFF' })))._unsafeUnwrap()
    expect(booked.booking).toMatchObject({ totalPence: 1750, discountPence: 1000, couponUid: 'TENOFF' })
    expect(world.state.redemptions).toEqual([{ couponId: coupon.id, userId: student.id, bookingId: booked.booking.id, discountPence: 1000 }])
    const unknown = await createBooking(world.deps, student, input({ coupon: 'NOPE', start: at('2026-06-04T09:00:00Z'), finish: at('2026-06-04T10:00:00Z') }))
    expect(unknown._unsafeUnwrapErr()).toEqual({ type: 'CouponInvalid', uid: 'NOPE', reason: 'not_found' })
  })

  it("locates the student's postcode for a lesson at their home, and refuses one it cannot locate on address.postcode", async () => {
    const { world, student, input } = setUp()
    const address = { line1: '1 High St', line2: null, city: 'London', postcode: 'sw1a 2aa', country: 'GB', lat: null, lng: null }
    const home = input({ lessonType: 'students_home', address })
    expect((await createBooking(world.deps, student, home))._unsafeUnwrapErr()).toEqual({
      type: 'ValidationFailed',
      errors: { 'address.postcode': ['could not be located'] },
    })
    world.knowPostcode('SW1A 2AA', { lat: 51.5034, lng: -0.1276 })
    const booked = (await createBooking(world.deps, student, home))._unsafeUnwrap()
    // Stored with the point it was located at (CONTRACT §17), so later checks never locate it again.
    expect(booked.lesson).toMatchObject({ lessonType: 'students_home', address: { ...address, lat: 51.5034, lng: -0.1276 }, meetingUrl: null })
  })

  it('refuses a home the tutor does not travel to', async () => {
    const { world, student, input } = setUp()
    const far = { line1: '1 Quay St', line2: null, city: 'Manchester', postcode: 'M1 1AE', country: 'GB', lat: 53.4808, lng: -2.2426 }
    expect((await createBooking(world.deps, student, input({ lessonType: 'students_home', address: far })))._unsafeUnwrapErr().type).toBe('SlotUnavailable')
  })

  it('books a parent with their own children only', async () => {
    const { world, input } = setUp()
    const parent = world.addParent()
    const child = world.addChild(parent.id)
    const stranger = world.addChild(world.addParent().id)
    expect((await createBooking(world.deps, parent, input({ childIds: [child.id, stranger.id] })))._unsafeUnwrapErr()).toEqual({
      type: 'ValidationFailed',
      errors: { 'child_ids.1': ['is not one of your children'] },
    })
    const booked = (await createBooking(world.deps, parent, input({ childIds: [child.id] })))._unsafeUnwrap()
    expect(booked.children).toEqual([{ id: child.id, firstname: child.firstname, lastname: child.lastname }])
  })
})

describe('booking and the tutor lock', () => {
  it("asks the tutor's calendar feed before taking the locks, once, and books by its answer", async () => {
    const { world, student, input } = setUp()
    world.state.teaches[0]!.calendarFeedUrl = 'https://calendar.example/feed.ics'
    const order: string[] = []
    const run = world.deps.uow.run.bind(world.deps.uow)
    const deps = {
      ...world.deps,
      uow: { repos: world.deps.uow.repos, run: ((work) => (order.push('transaction'), run(work))) as typeof world.deps.uow.run },
      availability: {
        ...world.deps.availability,
        calendar: {
          busyBetween: async () => {
            order.push('calendar')
            // Busy 09:00-10:00 UTC on 3 June: the requested hour.
            return [{ start: at('2026-06-03T09:00:00Z'), end: at('2026-06-03T10:00:00Z') }]
          },
        },
      },
    }
    const refused = await createBooking(deps, student, input())
    expect(refused._unsafeUnwrapErr().type).toBe('SlotUnavailable')
    expect(order).toEqual(['calendar', 'transaction'])
  })
})
