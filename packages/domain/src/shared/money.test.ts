import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { basisPoints, formatPence, parsePounds, percentOf, roundHalfUp } from './money'

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
  it('takes percentages of pence half up, with up to two decimals', () => {
    expect(percentOf(2500, 10)).toBe(250)
    expect(percentOf(2505, 10)).toBe(251)
    expect(percentOf(1000, 12.5)).toBe(125)
    expect(percentOf(1, 50)).toBe(1)
  })
  it('refuses percentages with more than two decimals or a sign', () => {
    expect(() => basisPoints(12.345)).toThrow(RangeError)
    expect(() => basisPoints(-1)).toThrow(RangeError)
    expect(basisPoints(0.07)).toBe(7)
  })
})
