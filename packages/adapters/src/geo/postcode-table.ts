import type { Kysely } from 'kysely'
import type { AddressDirectory, AddressMatch } from '@tutoring/domain/availability'
import type { Database } from '../db/database'
import type { PostcodeRow } from './postcodes.table'

const postcodeMatch = (row: PostcodeRow): AddressMatch => ({
  line1: null,
  line2: null,
  city: row.city,
  postcode: row.postcode,
  country: 'GB',
  lat: row.lat,
  lng: row.lng,
})

/**
 * The offline geocoder and address search: the `postcodes` table (a sample, or the ONS
 * Postcode Directory loaded by `pnpm cli postcodes:import`). Postcodes arrive normalised.
 */
export function tablePostcodeDirectory(db: Kysely<Database>): AddressDirectory {
  return {
    async locate(postcode) {
      const row = await db.selectFrom('postcodes').select(['lat', 'lng']).where('postcode', '=', postcode).executeTakeFirst()
      return row && { lat: row.lat, lng: row.lng }
    },
    async addressesAt(postcode) {
      const place = await db.selectFrom('postcodes').selectAll().where('postcode', '=', postcode).executeTakeFirst()
      if (!place) return []
      const lines = await db.selectFrom('postcode_addresses').selectAll().where('postcode', '=', postcode).orderBy('line1').orderBy('id').execute()
      if (lines.length === 0) return [postcodeMatch(place)]
      return lines.map((line) => ({ ...postcodeMatch(place), line1: line.line1, line2: line.line2, city: line.city ?? place.city }))
    },
    async postcodesStartingWith(prefix, limit) {
      const escaped = prefix.replace(/[\\%_]/g, (c) => `\\${c}`)
      const rows = await db.selectFrom('postcodes').selectAll().where('postcode', 'like', `${escaped}%`).orderBy('postcode').limit(limit).execute()
      return rows.map(postcodeMatch)
    },
  }
}
