import type { Generated, Selectable } from 'kysely'

export type PaymentStatusText =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'succeeded'
  | 'canceled'
  | 'scheduled'

export interface PaymentsTable {
  id: Generated<number>
  booking_id: number
  user_id: number
  processor_payment_intent_id: string | null
  voided_payment_intent_id: Generated<string | null>
  processor_payment_method_id: string | null
  status: PaymentStatusText
  amount_pence: number
  captured_pence: Generated<number>
  refunded_pence: Generated<number>
  client_secret: string | null
  setup_intent_id: Generated<string | null>
  redirect_url: string | null
  authorize_at: Date | null
  capture_at: Date | null
  last_error: string | null
  destination_account_id: string | null
  application_fee_pence: number | null
  transfer_group: string | null
  dispute_id: string | null
  dispute_status: string | null
  dispute_reason: string | null
  dispute_amount_pence: number | null
  disputed_at: Date | null
  failed_attempts: Generated<number>
  retry_at: Date | null
  created_at: Generated<Date>
  updated_at: Generated<Date>
}
export type PaymentRow = Selectable<PaymentsTable>
