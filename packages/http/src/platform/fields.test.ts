import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { abbreviateLastname, describeExperience, hoursFromMinutes } from './fields'

describe('tutoring experience', () => {
  it('reads as years and months', () => {
    expect(describeExperience(38)).toBe('3 years 2 months')
    expect(describeExperience(13)).toBe('1 year 1 month')
    expect(describeExperience(24)).toBe('2 years')
    expect(describeExperience(5)).toBe('5 months')
    expect(describeExperience(0)).toBe('0 months')
    expect(describeExperience(null)).toBeNull()
  })
})

describe('last name initial', () => {
  it('is the first character upper-cased with a full stop, a surrogate pair whole', () => {
    expect(abbreviateLastname('smith')).toBe('S.')
    expect(abbreviateLastname('  ölund ')).toBe('Ö.')
    expect(abbreviateLastname('𝒜dams')).toBe('𝒜.')
    expect(abbreviateLastname('')).toBe('')
    expect(abbreviateLastname('   ')).toBe('')
  })

  it('takes the first code point of the trimmed name, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (name) => {
        const first = [...name.trim()][0]
        expect(abbreviateLastname(name)).toBe(first === undefined ? '' : `${first.toUpperCase()}.`)
      }),
    )
  })
})

describe('hours taught', () => {
  it('reads minutes as hours, to two places', () => {
    expect(hoursFromMinutes(0)).toBe(0)
    expect(hoursFromMinutes(90)).toBe(1.5)
    expect(hoursFromMinutes(20)).toBe(0.33)
    expect(hoursFromMinutes(40)).toBe(0.67)
  })
})
