import { describe, expect, it } from 'vitest'
import { aBookedLesson, aWeeklySchedule } from '@tutoring/testkit'
import { isSlotAvailable } from './slot-check'

const schedule = aWeeklySchedule([{ from: '09:00', to: '17:00' }], { lessonTypes: ['online'], bufferMinutes: 15 })
const now = new Date('2026-06-01T06:00:00Z')
const at = (iso: string) => new Date(iso)

describe('checking a requested slot', () => {
  it('accepts a slot availability offers', () => {
    const slot = { start: at('2026-06-02T08:00:00Z'), finish: at('2026-06-02T09:00:00Z'), lessonType: 'online' as const }
    expect(isSlotAvailable({ schedule, now }, slot).isOk()).toBe(true)
  })

  it('refuses a slot off the grid, outside the window or clashing with a lesson', () => {
    const lessons = [aBookedLesson('2026-06-02T10:00:00Z', 60)]
    const cases = [
      { start: at('2026-06-02T08:05:00Z'), finish: at('2026-06-02T09:05:00Z') },
      { start: at('2026-06-02T15:30:00Z'), finish: at('2026-06-02T16:30:00Z') },
      { start: at('2026-06-02T09:00:00Z'), finish: at('2026-06-02T09:50:00Z') },
      { start: at('2026-06-02T09:00:00Z'), finish: at('2026-06-02T08:00:00Z') },
    ]
    for (const times of cases) {
      expect(isSlotAvailable({ schedule, now, lessons }, { ...times, lessonType: 'online' })._unsafeUnwrapErr()).toEqual({
        type: 'SlotUnavailable',
        ...times,
      })
    }
  })

  it('refuses a lesson type the schedule does not offer', () => {
    const slot = { start: at('2026-06-02T08:00:00Z'), finish: at('2026-06-02T09:00:00Z'), lessonType: 'tutors_home' as const }
    expect(isSlotAvailable({ schedule, now }, slot).isErr()).toBe(true)
  })
})
