import { describe, expect, it } from 'vitest'
import type { Geocoder, PostcodeParser } from '../shared'
import { resolveLocation } from './resolve-location'

// A stand-in parser: the real one (a postcode library) lives in adapters.
const postcodes: PostcodeParser = {
  parse: (text) => {
    const compact = text.replace(/\s+/g, '').toUpperCase()
    return /^[A-Z]{1,2}\d[A-Z\d]?\d[A-Z]{2}$/.test(compact) ? { postcode: `${compact.slice(0, -3)} ${compact.slice(-3)}`, outcode: compact.slice(0, -3) } : undefined
  },
}
const offlineGeocoder: Geocoder = { locate: async () => undefined }
const knowsEverything: Geocoder = { locate: async () => ({ lat: 51.5, lng: -0.14 }) }

describe('resolving a location', () => {
  it('normalises the postcode and keeps the coordinates given', async () => {
    const result = await resolveLocation({ postcodes, geocoder: offlineGeocoder }, { postcode: 'sw1a1aa', lat: 51.501, lng: -0.1416, travelDistanceMiles: 5 })
    expect(result._unsafeUnwrap()).toEqual({ postcode: 'SW1A 1AA', outcode: 'SW1A', lat: 51.501, lng: -0.1416, travelDistanceMiles: 5 })
  })
  it('refuses a postcode the geocoder cannot find when no coordinates are given', async () => {
    const result = await resolveLocation({ postcodes, geocoder: offlineGeocoder }, { postcode: 'SW1A 1AA', travelDistanceMiles: 5 })
    expect(result._unsafeUnwrapErr()).toEqual({ type: 'ValidationFailed', errors: { postcode: ['could not be located'] } })
  })
  it('takes the coordinates from the geocoder when it knows them', async () => {
    const result = await resolveLocation({ postcodes, geocoder: knowsEverything }, { postcode: 'SW1A 1AA', travelDistanceMiles: 0 })
    expect(result._unsafeUnwrap()).toMatchObject({ lat: 51.5, lng: -0.14 })
  })
  it('refuses a bad postcode, half a coordinate pair, and numbers out of range', async () => {
    const deps = { postcodes, geocoder: offlineGeocoder }
    expect((await resolveLocation(deps, { postcode: 'NOPE', lat: 1, travelDistanceMiles: 5 }))._unsafeUnwrapErr()).toEqual({
      type: 'ValidationFailed',
      errors: { postcode: ['is not a valid UK postcode'], lng: ['is required with the other coordinate'] },
    })
    const far = await resolveLocation(deps, { postcode: 'SW1A 1AA', lat: 91, lng: 181, travelDistanceMiles: 101 })
    expect(Object.keys(far._unsafeUnwrapErr().errors).sort()).toEqual(['lat', 'lng', 'travel_distance_miles'])
  })
})
