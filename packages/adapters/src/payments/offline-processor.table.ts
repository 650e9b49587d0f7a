import type { ColumnType, Generated } from 'kysely'
import type { PaymentIntentStatus, SetupIntentStatus } from '@tutoring/domain/payments'

/** The offline processor's own objects (see offline-processor.ts), shaped as Stripe's. */
export interface OfflinePaymentMethodsTable {
  id: string
  customer_id: string | null
  test_card: string | null
  brand: string
  last4: string
  exp_month: number
  exp_year: number
  created_at: Generated<Date>
}

export interface OfflineAccountsTable {
  id: string
  email: string | null
  payouts_enabled: Generated<boolean>
  created_at: Generated<Date>
  updated_at: Generated<Date>
}

export interface OfflinePaymentIntentsTable {
  id: string
  customer_id: string
  payment_method_id: string
  status: PaymentIntentStatus
  capture_method: 'manual' | 'automatic'
  amount_pence: number
  amount_capturable_pence: Generated<number>
  amount_captured_pence: Generated<number>
  amount_received_pence: Generated<number>
  client_secret: string
  redirect_url: string | null
  latest_charge_id: string | null
  destination_account_id: string | null
  application_fee_pence: number | null
  application_fee_refunded_pence: Generated<number>
  transfer_id: string | null
  transfer_group: string | null
  /** As given at creation; written as JSON text. */
  metadata: ColumnType<Record<string, string>, string | undefined, never>
  created_at: Generated<Date>
  updated_at: Generated<Date>
}

export interface OfflineSetupIntentsTable {
  id: string
  customer_id: string
  payment_method_id: string | null
  status: SetupIntentStatus
  client_secret: string
  redirect_url: string | null
  created_at: Generated<Date>
}

export interface OfflineTransfersTable {
  id: string
  account_id: string
  amount_pence: number
  reversed_pence: Generated<number>
  source_charge_id: string | null
  transfer_group: string | null
  created_at: Generated<Date>
}

export interface OfflineRefundsTable {
  id: string
  payment_intent_id: string
  amount_pence: number
  transfer_reversed_pence: Generated<number>
  application_fee_refunded_pence: Generated<number>
  created_at: Generated<Date>
}

export interface OfflineProcessorRequestsTable {
  idempotency_key: string
  answer: ColumnType<unknown, string, string>
  created_at: Generated<Date>
}
