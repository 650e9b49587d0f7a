import type { Kysely } from 'kysely'
import type { AddressDirectory, AddressMatch } from '@tutoring/domain/availability'
import type { GeoPoint } from '@tutoring/domain/shared'
import type { Database } from '../db/database'
import type { PostcodeRow } from './postcodes.table'
import { shippedDistricts } from './postcode-districts'

const match = (postcode: string, city: string | null, point: GeoPoint): AddressMatch => ({
  line1: null,
  line2: null,
  city,
  postcode,
  country: 'GB',
  lat: point.lat,
  lng: point.lng,
})
const postcodeMatch = (row: PostcodeRow): AddressMatch => match(row.postcode, row.city, row)

/** "N1 9GU" -> "N1"; an outward code alone is its own. */
const outwardCodeOf = (postcode: string): string => postcode.split(' ')[0] ?? postcode

/**
 * The offline geocoder and address search: the `postcodes` table (a sample, or the ONS
 * Postcode Directory loaded by `pnpm cli postcodes:import`) for exact points, else the
 * centroid of the postcode's district (data/postcode-districts.csv, held in memory: one map
 * lookup, no second query, alike on PGlite and PostgreSQL). Postcodes arrive normalised.
 */
export function tablePostcodeDirectory(db: Kysely<Database>): AddressDirectory {
  const districts = shippedDistricts()
  const startingWith = (prefix: string) => db.selectFrom('postcodes').where('postcode', 'like', `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
  return {
    async locate(postcode) {
      const row = await db.selectFrom('postcodes').select(['lat', 'lng']).where('postcode', '=', postcode).executeTakeFirst()
      return row ? { lat: row.lat, lng: row.lng } : districts.get(outwardCodeOf(postcode))
    },
    async addressesAt(postcode) {
      const place = await db.selectFrom('postcodes').selectAll().where('postcode', '=', postcode).executeTakeFirst()
      if (!place) {
        const centroid = districts.get(outwardCodeOf(postcode))
        return centroid ? [match(postcode, null, centroid)] : []
      }
      const lines = await db.selectFrom('postcode_addresses').selectAll().where('postcode', '=', postcode).orderBy('line1').orderBy('id').execute()
      if (lines.length === 0) return [postcodeMatch(place)]
      return lines.map((line) => ({ ...postcodeMatch(place), line1: line.line1, line2: line.line2, city: line.city ?? place.city }))
    },
    async postcodesStartingWith(prefix, limit) {
      const rows = (await startingWith(prefix).selectAll().orderBy('postcode').limit(limit).execute()).map(postcodeMatch)
      // An outward code alone whose postcodes the table does not hold answers as the district itself.
      const centroid = districts.get(prefix)
      if (!centroid || (await startingWith(`${prefix} `).select('postcode').limit(1).executeTakeFirst())) return rows
      return [match(prefix, null, centroid), ...rows].slice(0, limit)
    },
  }
}
