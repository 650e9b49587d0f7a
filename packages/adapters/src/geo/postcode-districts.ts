import { readFileSync } from 'node:fs'
import type { GeoPoint } from '@tutoring/domain'

/** Outward code ("N1", "SW1A") to the centroid of its postcodes. */
type PostcodeDistricts = ReadonlyMap<string, GeoPoint>

/**
 * Beside this module in the sources (src/geo/data); beside the bundle (dist/data) once built,
 * where the build script copies it.
 */
const SHIPPED_FILE = new URL('./data/postcode-districts.csv', import.meta.url)

/** `district,lat,lng,postcodes` rows after a header, as scripts/postcode-districts.ts writes them. */
function parseDistricts(csv: string): PostcodeDistricts {
  const districts = new Map<string, GeoPoint>()
  for (const line of csv.split('\n').slice(1)) {
    const [district, lat, lng] = line.split(',')
    if (district) districts.set(district, { lat: Number(lat), lng: Number(lng) })
  }
  return districts
}

let shipped: PostcodeDistricts | undefined

/** The districts shipped with the adapter (data/README.md), read once per process. */
export function shippedDistricts(): PostcodeDistricts {
  shipped ??= parseDistricts(readFileSync(SHIPPED_FILE, 'utf8'))
  return shipped
}
