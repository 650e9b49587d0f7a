import type { Generated, Selectable } from 'kysely'

export interface PostcodesTable {
  postcode: string
  outcode: string
  lat: number
  lng: number
  city: string | null
}
export interface PostcodeAddressesTable {
  id: Generated<number>
  postcode: string
  line1: string
  line2: string | null
  city: string | null
}
export type PostcodeRow = Selectable<PostcodesTable>

/** The postcode directory's tables, read by every context that locates a place. */
export interface GeoTables {
  postcodes: PostcodesTable
  postcode_addresses: PostcodeAddressesTable
}
