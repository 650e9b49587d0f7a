import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { formatPence, parsePounds, roundHalfUp } from './money'

describe('money', () => {
  it('rounds half up to the penny', () => {
    expect(roundHalfUp(5, 2)).toBe(3)
    expect(roundHalfUp(4, 2)).toBe(2)
    expect(roundHalfUp(2499, 10)).toBe(250)
    expect(roundHalfUp(2494, 10)).toBe(249)
  })
  it('formats pence as a two-decimal string', () => {
    expect(formatPence(2500)).toBe('25.00')
    expect(formatPence(5)).toBe('0.05')
    expect(formatPence(123456)).toBe('1234.56')
  })
  it('parses what it formats', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 99_999_99 }), (p) => parsePounds(formatPence(p)) === p))
  })
  it('refuses amounts with more than two decimals or signs', () => {
    expect(parsePounds('1.234')).toBeUndefined()
    expect(parsePounds('-1.00')).toBeUndefined()
    expect(parsePounds('1e3')).toBeUndefined()
  })
})
