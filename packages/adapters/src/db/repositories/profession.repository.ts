import { sql, type Kysely } from 'kysely'
import type { OwnedRecords, Profession, ProfessionFields } from '@tutoring/domain'
import type { Database } from '../database'
import type { ProfessionRow } from '../tables/professions.table'
import { toColumns } from './column-names'

const rowToProfession = (row: ProfessionRow): Profession => ({
  id: row.id,
  userId: row.user_id,
  title: row.title,
  organisation: row.organisation,
  startDate: row.start_date,
  endDate: row.end_date,
  description: row.description,
})

const COLUMNS = {
  title: 'title',
  organisation: 'organisation',
  startDate: 'start_date',
  endDate: 'end_date',
  description: 'description',
} as const

export function professionRepository(db: Kysely<Database>): OwnedRecords<Profession, ProfessionFields> {
  return {
    async listByUser(userId) {
      const rows = await db
        .selectFrom('professions')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('start_date', 'desc')
        .orderBy('id')
        .execute()
      return rows.map(rowToProfession)
    },
    async findById(id) {
      const row = await db.selectFrom('professions').selectAll().where('id', '=', id).executeTakeFirst()
      return row && rowToProfession(row)
    },
    async insert(userId, fields) {
      const row = await db
        .insertInto('professions')
        .values({ ...toColumns(fields, COLUMNS), user_id: userId })
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToProfession(row)
    },
    async update(id, patch) {
      const row = await db
        .updateTable('professions')
        .set({ ...toColumns(patch, COLUMNS), updated_at: sql<Date>`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToProfession(row)
    },
    async remove(id) {
      await db.deleteFrom('professions').where('id', '=', id).execute()
    },
  }
}
