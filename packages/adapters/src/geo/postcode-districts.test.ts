import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { shippedDistricts } from './postcode-districts'
import { ukPostcodes } from './postcodes'

/** The shipped file read here on its own, so the tests do not take the module's word for it. */
const DISTRICT_ROWS = readFileSync(new URL('./data/postcode-districts.csv', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [district = '', lat, lng, points, source] = line.split(',')
    return { district, lat: Number(lat), lng: Number(lng), points: Number(points), source }
  })

describe('the shipped postcode districts', () => {
  it('hold each district of the United Kingdom once, as a valid outward code placed inside it', () => {
    expect(DISTRICT_ROWS.length).toBeGreaterThan(3000)
    expect(new Set(DISTRICT_ROWS.map((row) => row.district)).size).toBe(DISTRICT_ROWS.length)
    for (const row of DISTRICT_ROWS) {
      expect(ukPostcodes.parse(`${row.district} 1AA`)?.outcode, row.district).toBe(row.district)
      expect(row.lat, row.district).toBeGreaterThan(49.8)
      expect(row.lat, row.district).toBeLessThan(61)
      expect(row.lng, row.district).toBeGreaterThan(-8.7)
      expect(row.lng, row.district).toBeLessThan(1.8)
      expect(row.points, row.district).toBeGreaterThan(0)
    }
    const districts = DISTRICT_ROWS.map((row) => row.district)
    expect(districts).toEqual(expect.arrayContaining(['N1', 'N1C', 'SW1A', 'EC1A', 'W1A', 'AB10', 'EH1', 'G1', 'KW15', 'ZE2', 'CF10', 'SA1', 'LL55', 'TR21', 'BT1', 'BT9', 'BT47', 'BT94']))
  })

  it("take Northern Ireland from GeoNames (CC BY 4.0), since the NSPL's Northern Ireland data is not under the Open Government Licence", () => {
    const northernIreland = DISTRICT_ROWS.filter((row) => row.district.startsWith('BT'))
    expect(northernIreland.length).toBeGreaterThan(75)
    expect(new Set(northernIreland.map((row) => row.source))).toEqual(new Set(['geonames']))
    expect(new Set(DISTRICT_ROWS.filter((row) => !row.district.startsWith('BT')).map((row) => row.source))).toEqual(new Set(['nspl']))
  })

  it('load into the map the geocoder looks in, every row of the file', () => {
    const districts = shippedDistricts()
    expect(districts.size).toBe(DISTRICT_ROWS.length)
    for (const row of DISTRICT_ROWS) expect(districts.get(row.district), row.district).toEqual({ lat: row.lat, lng: row.lng })
  })
})
