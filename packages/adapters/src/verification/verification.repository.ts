import type { Kysely, Transaction } from 'kysely'
import type { WithoutLocks } from '@tutoring/domain/shared'
import type { VerificationChange, VerificationRecord, VerificationRepository } from '@tutoring/domain/verification'
import type { Database } from '../db/database'
import type { Locks } from '../db/row-locks'
import type { VerificationRow } from './verifications.table'

export const rowToVerification = (row: VerificationRow): VerificationRecord => ({
  id: row.id,
  userId: row.user_id,
  kind: row.kind,
  status: row.status,
  reference: row.reference,
  redirectUrl: row.redirect_url,
  documentFileId: row.document_file_id,
  certificateNumber: row.certificate_number,
  issueDate: row.issue_date,
  reviewedBy: row.reviewed_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
})

const changeToColumns = (change: VerificationChange) => ({
  status: change.status,
  updated_at: change.at,
  ...(change.reference !== undefined ? { reference: change.reference } : {}),
  ...(change.redirectUrl !== undefined ? { redirect_url: change.redirectUrl } : {}),
  ...(change.documentFileId !== undefined ? { document_file_id: change.documentFileId } : {}),
  ...(change.certificateNumber !== undefined ? { certificate_number: change.certificateNumber } : {}),
  ...(change.issueDate !== undefined ? { issue_date: change.issueDate } : {}),
  ...(change.reviewedBy !== undefined ? { reviewed_by: change.reviewedBy } : {}),
})

const byUserAndKind = (db: Kysely<Database>, userId: number, kind: VerificationRecord['kind']) =>
  db.selectFrom('verifications').selectAll().where('user_id', '=', userId).where('kind', '=', kind)

/** Verification accounts: one row per tutor and kind; no row is NONE. */
export function verificationRepository(db: Kysely<Database>): WithoutLocks<VerificationRepository> {
  return {
    async findByUserAndKind(userId, kind) {
      const row = await byUserAndKind(db, userId, kind).executeTakeFirst()
      return row && rowToVerification(row)
    },
    async insert(v) {
      const row = await db
        .insertInto('verifications')
        .values({
          user_id: v.userId,
          kind: v.kind,
          status: v.status,
          reference: v.reference,
          redirect_url: v.redirectUrl,
          document_file_id: v.documentFileId,
          certificate_number: v.certificateNumber ?? null,
          issue_date: v.issueDate ?? null,
          reviewed_by: null,
        })
        .onConflict((oc) => oc.constraint('verifications_user_kind').doNothing())
        .returningAll()
        .executeTakeFirst()
      return row && rowToVerification(row)
    },
    async update(id, change) {
      const row = await db.updateTable('verifications').set(changeToColumns(change)).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
      return rowToVerification(row)
    },
  }
}

export function verificationLocks(trx: Transaction<Database>): Locks<VerificationRepository> {
  return {
    async lockByUserAndKind(userId, kind) {
      const row = await byUserAndKind(trx, userId, kind).forUpdate().executeTakeFirst()
      return row && rowToVerification(row)
    },
    async lockByReference(reference) {
      const row = await trx.selectFrom('verifications').selectAll().where('reference', '=', reference).forUpdate().executeTakeFirst()
      return row && rowToVerification(row)
    },
  }
}
