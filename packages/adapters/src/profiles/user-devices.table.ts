import type { Generated, Selectable } from 'kysely'

export interface UserDevicesTable {
  id: Generated<number>
  user_id: number
  platform: 'ios' | 'android' | 'web'
  push_token: string
  created_at: Generated<Date>
  updated_at: Generated<Date>
}
export type UserDeviceRow = Selectable<UserDevicesTable>
