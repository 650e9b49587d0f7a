import type { Generated, Selectable } from 'kysely'

export type VerificationKindColumn = 'identity' | 'dbs' | 'qualification'
export type VerificationStatusColumn = 'PENDING' | 'PASS' | 'FAIL' | 'INTERNAL_REVIEW'

export interface VerificationsTable {
  id: Generated<number>
  user_id: number
  kind: VerificationKindColumn
  status: VerificationStatusColumn
  reference: string
  redirect_url: string | null
  document_file_id: string | null
  certificate_number: string | null
  issue_date: string | null
  reviewed_by: number | null
  created_at: Generated<Date>
  updated_at: Generated<Date>
}
export type VerificationRow = Selectable<VerificationsTable>
