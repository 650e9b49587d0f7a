import { describe, expect, it } from 'vitest'
import { hoursTaught } from './teaching-record'

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
