import type { BankAccountsTable } from './bank-accounts.table'
import type { CardsTable } from './cards.table'
import type { OfflineAccountsTable, OfflinePaymentIntentsTable, OfflinePaymentMethodsTable, OfflineProcessorRequestsTable, OfflineRefundsTable, OfflineSetupIntentsTable, OfflineTransfersTable } from './offline-processor.table'
import type { PayoutAccountsTable } from './payout-accounts.table'

/** The payments context's tables, as Kysely sees them; `Database` joins every context's. */
export interface PaymentsTables {
  bank_accounts: BankAccountsTable
  cards: CardsTable
  offline_accounts: OfflineAccountsTable
  offline_payment_intents: OfflinePaymentIntentsTable
  offline_payment_methods: OfflinePaymentMethodsTable
  offline_processor_requests: OfflineProcessorRequestsTable
  offline_refunds: OfflineRefundsTable
  offline_setup_intents: OfflineSetupIntentsTable
  offline_transfers: OfflineTransfersTable
  payout_accounts: PayoutAccountsTable
}
