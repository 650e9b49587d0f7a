import type { PaymentsTable } from './payments.table'
import type { TutorPayoutsTable, TutorTransfersTable } from './tutor-transfers.table'

/** The booking-payments context's tables, as Kysely sees them; `Database` joins every context's. */
export interface BookingPaymentsTables {
  payments: PaymentsTable
  tutor_payouts: TutorPayoutsTable
  tutor_transfers: TutorTransfersTable
}
