import { describe, expect, it } from 'vitest'
import { criterionMean, hoursTaught, overallRating } from './teaching-record'

const at = (time: string) => new Date(`2026-12-01T${time}:00Z`)
const lesson = (from: string, to: string) => ({ start: at(from), finish: at(to) })

describe('hours taught', () => {
  it('sums the lessons that have finished, in hours', () => {
    expect(hoursTaught([lesson('09:00', '10:00'), lesson('11:00', '11:30')], at('12:00'))).toBe(1.5)
  })

  it('counts a lesson from the moment it finishes, not while it runs or before it starts', () => {
    const lessons = [lesson('09:00', '10:00'), lesson('10:30', '11:30'), lesson('13:00', '14:00')]
    expect(hoursTaught(lessons, at('11:00'))).toBe(1)
    expect(hoursTaught(lessons, at('11:30'))).toBe(2)
  })

  it('is zero before any lesson, and rounds to two places', () => {
    expect(hoursTaught([], at('12:00'))).toBe(0)
    expect(hoursTaught([lesson('09:00', '09:20')], at('12:00'))).toBe(0.33)
    expect(hoursTaught([lesson('09:00', '09:40')], at('12:00'))).toBe(0.67)
  })
})

describe('the overall rating', () => {
  it('is the mean of each review’s mean of the three criteria, to two places', () => {
    // One review of 5, 5, 4: 4.666...
    expect(overallRating({ count: 1, knowledge: 5, communication: 5, punctuality: 4 })).toBe(4.67)
    // 5,5,5 and 3,4,2: means 5 and 3, overall 4.
    expect(overallRating({ count: 2, knowledge: 8, communication: 9, punctuality: 7 })).toBe(4)
  })

  it('is null for a tutor nobody has reviewed', () => {
    expect(overallRating({ count: 0, knowledge: 0, communication: 0, punctuality: 0 })).toBeNull()
  })

  it('agrees with a criterion’s own mean when the three are alike', () => {
    expect(criterionMean(13, 3)).toBe(4.33)
    expect(overallRating({ count: 3, knowledge: 13, communication: 13, punctuality: 13 })).toBe(4.33)
    expect(criterionMean(0, 0)).toBeNull()
  })
})
