import { describe, expect, it } from 'vitest'
import { rateExperience } from './rating'

const parties = { tutorId: 10, studentId: 20, parentId: 30 }
const finish = new Date('2026-06-01T11:00:00Z')
const after = new Date('2026-06-01T11:00:00Z')
const lesson = { state: 'ACTIVE' as const, finish, experienceRating: null }
const rate = (overrides: Partial<Parameters<typeof rateExperience>[0]> = {}) =>
  rateExperience({ actor: { id: 20, roleId: 1 }, parties, lesson, rating: 4, now: after, ...overrides })

describe('experience rating', () => {
  it('is recorded by the student from the lesson\'s finish', () => {
    expect(rate()._unsafeUnwrap()).toBe(4)
  })

  it('may be given by the parent', () => {
    expect(rate({ actor: { id: 30, roleId: 2 } })._unsafeUnwrap()).toBe(4)
  })

  it('is refused to the tutor and to strangers', () => {
    expect(rate({ actor: { id: 10, roleId: 3 } })._unsafeUnwrapErr().type).toBe('Forbidden')
    expect(rate({ actor: { id: 1, roleId: 200 } })._unsafeUnwrapErr().type).toBe('Forbidden')
  })

  it('takes only whole numbers from 1 to 5', () => {
    for (const rating of [0, 6, 2.5, Number.NaN]) {
      expect(rate({ rating })._unsafeUnwrapErr().type).toBe('ValidationFailed')
    }
    expect(rate({ rating: 1 }).isOk()).toBe(true)
    expect(rate({ rating: 5 }).isOk()).toBe(true)
  })

  it('is refused before the lesson finishes', () => {
    expect(rate({ now: new Date(finish.getTime() - 1) })._unsafeUnwrapErr()).toEqual({ type: 'LessonNotFinished', finish })
  })

  it('is set once only', () => {
    expect(rate({ lesson: { ...lesson, experienceRating: 5 } })._unsafeUnwrapErr().type).toBe('InvalidStateTransition')
  })

  it('is refused on a cancelled lesson', () => {
    expect(rate({ lesson: { ...lesson, state: 'CANCELLED' } })._unsafeUnwrapErr().type).toBe('InvalidStateTransition')
  })
})
