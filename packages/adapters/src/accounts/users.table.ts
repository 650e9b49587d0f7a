import type { Generated, Insertable, Selectable, Updateable } from 'kysely'

export interface UsersTable {
  id: Generated<number>
  email: string
  password_hash: string
  username: string
  firstname: string
  lastname: string
  role_id: number
  country: string
  email_verified_at: Date | null
  processor_customer_id: string | null
  processor_account_id: string | null
  created_at: Generated<Date>
  updated_at: Generated<Date>
  deleted_at: Date | null
}
export type UserRow = Selectable<UsersTable>
export type NewUserRow = Insertable<UsersTable>
export type UserUpdate = Updateable<UsersTable>
