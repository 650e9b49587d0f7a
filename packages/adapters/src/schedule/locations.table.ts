import type { Generated, Selectable } from 'kysely'

export interface LocationsTable {
  id: Generated<number>
  tutor_id: number
  postcode: string
  outcode: string
  lat: number
  lng: number
  travel_distance_miles: number
  created_at: Generated<Date>
  updated_at: Generated<Date>
}
export type LocationRow = Selectable<LocationsTable>
