import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AddressDirectory } from '@tutoring/domain/availability'
import { distanceMiles } from '@tutoring/domain/shared'
import type { DatabaseHandle } from '../db/connect'
import { createTestDatabase, testDatabaseKinds } from '../testing'
import { shippedDistricts } from './postcode-districts'
import { tablePostcodeDirectory } from './postcode-table'
import { ukPostcodes } from './postcodes'

/** Postcodes outside the sample table, with where they really are (a landmark within a street or two). */
const PLACES: [postcode: string, place: string, lat: number, lng: number][] = [
  ['N1 9GU', "King's Cross", 51.5347, -0.1225],
  ['AB10 1XG', 'Aberdeen, Union Street', 57.1437, -2.0981],
  ['G1 1XQ', 'Glasgow, George Square', 55.8612, -4.2502],
  ['SA1 1NW', 'Swansea city centre', 51.6195, -3.9436],
  ['KW15 1NX', 'Kirkwall', 58.981, -2.96],
]

/** Letters an inward code's unit may use (Royal Mail never uses C, I, K, M, O or V there). */
const UNIT_LETTERS = [...'ABDEFGHJLNPQRSTUWXYZ']
const inwardCode = fc
  .tuple(fc.integer({ min: 0, max: 9 }), fc.constantFrom(...UNIT_LETTERS), fc.constantFrom(...UNIT_LETTERS))
  .map(([digit, a, b]) => `${digit}${a}${b}`)

describe.each(testDatabaseKinds())('the offline postcode directory on %s', (kind) => {
  let handle: DatabaseHandle
  let directory: AddressDirectory
  let sample: Set<string>
  const districts = shippedDistricts()

  beforeAll(async () => {
    handle = await createTestDatabase(kind)
    directory = tablePostcodeDirectory(handle.db)
    sample = new Set((await handle.db.selectFrom('postcodes').select('postcode').execute()).map((row) => row.postcode))
  })
  afterAll(() => handle.close())

  it('keeps the exact point of a postcode in the table', async () => {
    expect(await directory.locate('SW1A 1AA')).toEqual({ lat: 51.501009, lng: -0.141588 })
    expect(await directory.locate('EC1A 1BB')).toEqual({ lat: 51.520181, lng: -0.097805 })
  })

  it.each(PLACES)('places %s, known only by its district, near %s', async (postcode, _place, lat, lng) => {
    expect(sample.has(postcode)).toBe(false)
    const point = await directory.locate(postcode)
    expect(point).toEqual(districts.get(postcode.split(' ')[0]!))
    expect(distanceMiles(point!, { lat, lng })).toBeLessThan(2)
  })

  it('locates any valid postcode of any shipped district at its centroid', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...districts.keys()), inwardCode, async (district, inward) => {
        const postcode = `${district} ${inward}`
        fc.pre(!sample.has(postcode))
        expect(ukPostcodes.parse(postcode)?.postcode).toBe(postcode)
        expect(await directory.locate(postcode)).toEqual(districts.get(district))
      }),
      { numRuns: 300 },
    )
  })

  it('knows nothing of a district nobody has; a postcode the table holds answers before its district', async () => {
    expect(ukPostcodes.parse('ZZ9 9ZZ')).toBeDefined()
    expect(await directory.locate('ZZ9 9ZZ')).toBeUndefined()
    expect(await directory.addressesAt('ZZ9 9ZZ')).toEqual([])
    expect(await directory.postcodesStartingWith('ZZ9', 20)).toEqual([])
    expect(await directory.locate('BT1 1AA')).toEqual(districts.get('BT1'))
    // As `postcodes:import` of a licensed NSPL would leave it.
    await handle.db.insertInto('postcodes').values({ postcode: 'BT1 1AA', outcode: 'BT1', lat: 54.602, lng: -5.9223, city: null }).execute()
    expect(await directory.locate('BT1 1AA')).toEqual({ lat: 54.602, lng: -5.9223 })
  })

  it('answers a postcode known only by its district as one match at its centroid, without address lines', async () => {
    const n1 = districts.get('N1')!
    expect(await directory.addressesAt('N1 9GU')).toEqual([{ line1: null, line2: null, city: null, postcode: 'N1 9GU', country: 'GB', lat: n1.lat, lng: n1.lng }])
    expect((await directory.addressesAt('SW1A 1AA')).map((match) => match.line1)).toEqual(['Buckingham Palace'])
  })

  it('answers an outward code the table knows no postcode of as the district itself, at its centroid', async () => {
    const n1 = districts.get('N1')!
    expect(await directory.postcodesStartingWith('N1', 20)).toEqual([{ line1: null, line2: null, city: null, postcode: 'N1', country: 'GB', lat: n1.lat, lng: n1.lng }])
    expect((await directory.postcodesStartingWith('SW1A', 20)).map((match) => match.postcode)).toEqual(['SW1A 1AA', 'SW1A 2AA'])
    expect(await directory.postcodesStartingWith('N1 9', 20)).toEqual([])
  })
})
