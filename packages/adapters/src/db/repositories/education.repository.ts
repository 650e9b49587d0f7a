import { sql, type Kysely } from 'kysely'
import type { Education, EducationFields, OwnedRecords } from '@tutoring/domain'
import type { Database } from '../database'
import type { EducationRow } from '../tables/education.table'
import { toColumns } from './column-names'

const rowToEducation = (row: EducationRow): Education => ({
  id: row.id,
  userId: row.user_id,
  institution: row.institution,
  qualification: row.qualification,
  subject: row.subject,
  startYear: row.start_year,
  endYear: row.end_year,
})

const COLUMNS = {
  institution: 'institution',
  qualification: 'qualification',
  subject: 'subject',
  startYear: 'start_year',
  endYear: 'end_year',
} as const

export function educationRepository(db: Kysely<Database>): OwnedRecords<Education, EducationFields> {
  return {
    async listByUser(userId) {
      const rows = await db
        .selectFrom('education')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('start_year', 'desc')
        .orderBy('id')
        .execute()
      return rows.map(rowToEducation)
    },
    async findById(id) {
      const row = await db.selectFrom('education').selectAll().where('id', '=', id).executeTakeFirst()
      return row && rowToEducation(row)
    },
    async insert(userId, fields) {
      const row = await db
        .insertInto('education')
        .values({ ...toColumns(fields, COLUMNS), user_id: userId })
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToEducation(row)
    },
    async update(id, patch) {
      const row = await db
        .updateTable('education')
        .set({ ...toColumns(patch, COLUMNS), updated_at: sql<Date>`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToEducation(row)
    },
    async remove(id) {
      await db.deleteFrom('education').where('id', '=', id).execute()
    },
  }
}
