import type { Generated, Selectable } from 'kysely'

export interface CardsTable {
  id: Generated<number>
  user_id: number
  processor_payment_method_id: string
  brand: string
  last4: string
  exp_month: number
  exp_year: number
  is_default: Generated<boolean>
  created_at: Generated<Date>
  updated_at: Generated<Date>
  deleted_at: Date | null
}
export type CardRow = Selectable<CardsTable>
