import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { GeoPoint } from '@tutoring/domain/shared'
import { SHIPPED_FILES_ROOT } from '../shipped-files'

/** Outward code ("N1", "SW1A") to the centroid of its postcodes. */
type PostcodeDistricts = ReadonlyMap<string, GeoPoint>

const SHIPPED_FILE = path.join(SHIPPED_FILES_ROOT, 'geo/data/postcode-districts.csv')

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
