import type { Generated, Selectable } from 'kysely'

export interface BankAccountsTable {
  id: Generated<number>
  user_id: number
  account_holder_name: string
  sort_code: string
  last4: string
  processor_token: string | null
  processor_bank_account_id: string | null
  processor_account_id: string | null
  linked_at: Date | null
  is_default: Generated<boolean>
  created_at: Generated<Date>
  updated_at: Generated<Date>
  deleted_at: Date | null
}
export type BankAccountRow = Selectable<BankAccountsTable>
