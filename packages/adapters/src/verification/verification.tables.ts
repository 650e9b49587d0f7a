import type { VerificationsTable } from './verifications.table'

/** The verification context's tables, as Kysely sees them; `Database` joins every context's. */
export interface VerificationTables {
  verifications: VerificationsTable
}
