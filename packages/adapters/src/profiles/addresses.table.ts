import type { Generated, Selectable } from 'kysely'

export interface AddressesTable {
  id: Generated<number>
  user_id: number
  line1: string
  line2: string | null
  city: string
  postcode: string
  country: Generated<string>
  created_at: Generated<Date>
  updated_at: Generated<Date>
}
export type AddressRow = Selectable<AddressesTable>
