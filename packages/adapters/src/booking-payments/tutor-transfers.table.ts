import type { Generated, Selectable } from 'kysely'

export type TutorTransferStatus = 'waiting' | 'queued' | 'sent'

export interface TutorTransfersTable {
  id: Generated<number>
  payment_id: number
  tutor_id: number
  transfer_group: string
  status: Generated<TutorTransferStatus>
  amount_pence: number | null
  reversed_pence: Generated<number>
  processor_transfer_id: string | null
  processor_account_id: string | null
  created_at: Generated<Date>
  sent_at: Date | null
}
export type TutorTransferRow = Selectable<TutorTransfersTable>

export interface TutorPayoutsTable {
  processor_payout_id: string
  user_id: number
  amount_pence: number
  status: string
  failure_message: string | null
  updated_at: Generated<Date>
}
