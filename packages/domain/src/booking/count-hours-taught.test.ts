import { describe, expect, it } from 'vitest'
import { bookingWorld } from '@tutoring/testkit'
import { cancelBooking } from './cancel-booking'
import { countHoursTaught } from './count-hours-taught'
import { createBooking, type CreateBookingInput } from './create-booking'

// Monday 1 June 2026, 09:00 in London: lessons on the Wednesday, within the tutor's 09:00-17:00.
const NOW = '2026-06-01T08:00:00Z'
const at = (iso: string) => new Date(iso)

function setUp() {
  const world = bookingWorld(NOW)
  const { tutor, teach } = world.addTutor()
  const student = world.addStudent()
  const book = async (start: string, finish: string) => {
    const input: CreateBookingInput = { teachId: teach.id, subjectLevelId: 1, examBoardId: null, start: at(start), finish: at(finish), lessonType: 'online', childIds: [], address: null, coupon: null }
    return (await createBooking(world.deps, student, input))._unsafeUnwrap()
  }
  const minutesTaught = () => world.state.minutesTaught[tutor.id] ?? 0
  return { world, tutor, book, minutesTaught, count: () => countHoursTaught(world.deps) }
}

describe("a tutor's hours taught", () => {
  it('count a lesson once its finish has passed, not while it runs or before it starts, and only once', async () => {
    const { world, book, minutesTaught, count } = setUp()
    await book('2026-06-03T09:00:00Z', '2026-06-03T10:00:00Z')
    await book('2026-06-03T10:30:00Z', '2026-06-03T11:20:00Z')
    expect(await count()).toEqual({ counted: 0, withdrawn: 0 })
    world.clock.set('2026-06-03T11:00:00Z')
    expect(await count()).toEqual({ counted: 1, withdrawn: 0 })
    expect(minutesTaught()).toBe(60)
    world.clock.set('2026-06-03T11:20:00Z')
    expect(await count()).toEqual({ counted: 1, withdrawn: 0 })
    expect(await count()).toEqual({ counted: 0, withdrawn: 0 })
    expect(minutesTaught()).toBe(110)
  })

  it('leave out a lesson cancelled before its finish, and take back one cancelled after it', async () => {
    const { world, book, minutesTaught, count } = setUp()
    const staff = world.addStaff()
    const early = await book('2026-06-03T09:00:00Z', '2026-06-03T10:00:00Z')
    const late = await book('2026-06-03T11:00:00Z', '2026-06-03T11:45:00Z')
    ;(await cancelBooking(world.deps, staff, { bookingId: early.booking.id }))._unsafeUnwrap()
    world.clock.set('2026-06-03T12:00:00Z')
    expect(await count()).toEqual({ counted: 1, withdrawn: 0 })
    expect(minutesTaught()).toBe(45)
    ;(await cancelBooking(world.deps, staff, { bookingId: late.booking.id }))._unsafeUnwrap()
    expect(await count()).toEqual({ counted: 0, withdrawn: 1 })
    expect(minutesTaught()).toBe(0)
  })
})
