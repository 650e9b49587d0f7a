import { sql, type Kysely } from 'kysely'
import type { ObjectStorage } from '@tutoring/domain/files'
import type { Database } from '../../db/database'

/** The longest an upload made without an account is kept unclaimed (CONTRACT §15: a day at most). */
const UNCLAIMED_UPLOAD_KEPT_MS = 24 * 3_600_000
/** How often the server purges them. */
export const UNCLAIMED_UPLOAD_PURGE_EVERY_MS = 3_600_000

/**
 * Removes uploads nobody claimed: made without an account (registration's profile picture)
 * more than a day less one purge interval ago, so that none outlives the day between two
 * purges, and referenced by nothing. The rows go first, in one statement whose
 * rows are claimed with SKIP LOCKED, so instances running this at once each remove their
 * own; then their objects. Answers how many went. A crash between the two leaves an object
 * without a row, never a row without its object.
 */
export async function purgeUnclaimedUploads(db: Kysely<Database>, storage: ObjectStorage, now: Date, batch = 500): Promise<number> {
  const cutoff = new Date(now.getTime() - UNCLAIMED_UPLOAD_KEPT_MS + UNCLAIMED_UPLOAD_PURGE_EVERY_MS)
  let removed = 0
  for (;;) {
    const rows = await sql<{ storage_key: string }>`
      delete from files where id in (
        select f.id from files f
        where f.owner_id is null and f.created_at < ${cutoff}
          and not exists (select 1 from note_files n where n.file_id = f.id)
          and not exists (select 1 from profiles p where p.profile_picture_file_id = f.id or p.profile_video_file_id = f.id)
          and not exists (select 1 from verifications v where v.document_file_id = f.id)
        order by f.created_at
        limit ${batch}
        for update of f skip locked
      )
      returning storage_key`.execute(db)
    for (const row of rows.rows) await storage.delete(row.storage_key)
    removed += rows.rows.length
    if (rows.rows.length < batch) return removed
  }
}
