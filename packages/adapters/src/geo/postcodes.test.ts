import { describe, expect, it } from 'vitest'
import { ukPostcodes } from './postcodes'

describe('UK postcodes', () => {
  it('normalises case and spacing and names the outward code', () => {
    expect(ukPostcodes.parse(' sw1a1aa ')).toEqual({ postcode: 'SW1A 1AA', outcode: 'SW1A' })
    expect(ukPostcodes.parse('m1   1ae')).toEqual({ postcode: 'M1 1AE', outcode: 'M1' })
  })
  it('refuses what is not a postcode', () => {
    for (const text of ['', 'SW1A', 'NOT A CODE', '12345', 'SW1A 1AAA']) expect(ukPostcodes.parse(text)).toBeUndefined()
  })
})
