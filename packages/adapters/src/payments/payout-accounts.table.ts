import type { Generated } from 'kysely'

export interface PayoutAccountsTable {
  processor_account_id: string
  user_id: number
  payouts_enabled: Generated<boolean>
  state_at: Date
  updated_at: Generated<Date>
}
