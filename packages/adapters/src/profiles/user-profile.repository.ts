import { sql, type Kysely } from 'kysely'
import type { UserProfile, UserProfileRepository } from '@tutoring/domain/profiles'
import type { Database } from '../db/database'
import type { ProfileRow } from './profiles.table'

const rowToProfile = (row: ProfileRow): UserProfile => ({
  id: row.id,
  userId: row.user_id,
  bio: row.bio,
  teacherReferenceNumber: row.teacher_reference_number,
  tutoringExperienceMonths: row.tutoring_experience_months,
  isVisible: row.is_visible,
  hasPicture: row.profile_picture_file_id !== null,
  hasVideo: row.profile_video_file_id !== null,
})

export function userProfileRepository(db: Kysely<Database>): UserProfileRepository {
  return {
    async listByUser(userId) {
      const rows = await db.selectFrom('profiles').selectAll().where('user_id', '=', userId).orderBy('id').execute()
      return rows.map(rowToProfile)
    },
    async findById(id) {
      const row = await db.selectFrom('profiles').selectAll().where('id', '=', id).executeTakeFirst()
      return row && rowToProfile(row)
    },
    async update(id, patch) {
      const row = await db
        .updateTable('profiles')
        .set({
          bio: patch.bio,
          teacher_reference_number: patch.teacherReferenceNumber,
          tutoring_experience_months: patch.tutoringExperienceMonths,
          is_visible: patch.isVisible,
          updated_at: sql<Date>`now()`,
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToProfile(row)
    },
  }
}
