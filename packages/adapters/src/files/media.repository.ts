import { sql, type Kysely, type Selectable, type Transaction } from 'kysely'
import type { MediaProfile, MediaRepository, MediaSource } from '@tutoring/domain/files'
import type { WithoutLocks } from '@tutoring/domain/shared'
import type { Database } from '../db/database'
import type { Locks } from '../db/row-locks'
import { rowToStoredFile } from './file.repository'

/** A profiles row (profiles' table, read through the platform's `Database`: files may not use profiles). */
type ProfileRow = Selectable<Database['profiles']>

const rowToMediaProfile = (row: ProfileRow): MediaProfile => ({
  id: row.id,
  userId: row.user_id,
  bio: row.bio,
  teacherReferenceNumber: row.teacher_reference_number,
  tutoringExperienceMonths: row.tutoring_experience_months,
  isVisible: row.is_visible,
  pictureFileId: row.profile_picture_file_id,
  videoFileId: row.profile_video_file_id,
})

const SLOT_COLUMN = { picture: 'profile_picture_file_id', video: 'profile_video_file_id' } as const

/** Profile pictures and videos, and the documents of DBS and qualification checks. */
export function mediaRepository(db: Kysely<Database>): WithoutLocks<MediaRepository> {
  return {
    async setProfileFile(userId, slot, fileId) {
      const row = await db
        .updateTable('profiles')
        .set({ [SLOT_COLUMN[slot]]: fileId, updated_at: sql<Date>`now()` })
        .where('user_id', '=', userId)
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToMediaProfile(row)
    },
    async findSourceFile(userId, source: MediaSource) {
      const row =
        source === 'profile_picture' || source === 'profile_video'
          ? await db
              .selectFrom('profiles')
              .innerJoin('files', 'files.id', source === 'profile_picture' ? 'profiles.profile_picture_file_id' : 'profiles.profile_video_file_id')
              .innerJoin('users', 'users.id', 'profiles.user_id')
              .selectAll('files')
              .where('profiles.user_id', '=', userId)
              .where('users.deleted_at', 'is', null)
              .where('files.deleted_at', 'is', null)
              .executeTakeFirst()
          : await db
              .selectFrom('verifications')
              .innerJoin('files', 'files.id', 'verifications.document_file_id')
              .innerJoin('users', 'users.id', 'verifications.user_id')
              .selectAll('files')
              .where('verifications.user_id', '=', userId)
              .where('verifications.kind', '=', source)
              .where('users.deleted_at', 'is', null)
              .where('files.deleted_at', 'is', null)
              .executeTakeFirst()
      return row && rowToStoredFile(row)
    },
    async detachFile(fileId) {
      await db.updateTable('profiles').set({ profile_picture_file_id: null }).where('profile_picture_file_id', '=', fileId).execute()
      await db.updateTable('profiles').set({ profile_video_file_id: null }).where('profile_video_file_id', '=', fileId).execute()
      await db.updateTable('verifications').set({ document_file_id: null }).where('document_file_id', '=', fileId).execute()
    },
  }
}

export function mediaLocks(trx: Transaction<Database>): Locks<MediaRepository> {
  return {
    async lockProfile(userId) {
      await trx
        .insertInto('profiles')
        .values({
          user_id: userId,
          bio: null,
          teacher_reference_number: null,
          tutoring_experience_months: null,
          profile_picture_file_id: null,
          profile_video_file_id: null,
        })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .execute()
      const row = await trx.selectFrom('profiles').selectAll().where('user_id', '=', userId).forUpdate().executeTakeFirstOrThrow()
      return rowToMediaProfile(row)
    },
  }
}
