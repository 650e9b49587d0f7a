import { sql, type Kysely } from 'kysely'
import type { Child, ChildFields, OwnedRecords } from '@tutoring/domain'
import type { Database } from '../database'
import type { ChildRow } from '../tables/children.table'
import { toColumns } from './column-names'

const rowToChild = (row: ChildRow): Child => ({
  id: row.id,
  userId: row.parent_id,
  firstname: row.firstname,
  lastname: row.lastname,
  dateOfBirth: row.date_of_birth,
})

const COLUMNS = { firstname: 'firstname', lastname: 'lastname', dateOfBirth: 'date_of_birth' } as const

/** Children are soft-deleted: lessons keep their links, lists and lookups skip them. */
export function childRepository(db: Kysely<Database>): OwnedRecords<Child, ChildFields> {
  const live = () => db.selectFrom('children').selectAll().where('deleted_at', 'is', null)
  return {
    async listByUser(userId) {
      const rows = await live().where('parent_id', '=', userId).orderBy('id').execute()
      return rows.map(rowToChild)
    },
    async findById(id) {
      const row = await live().where('id', '=', id).executeTakeFirst()
      return row && rowToChild(row)
    },
    async insert(userId, fields) {
      const row = await db
        .insertInto('children')
        .values({ ...toColumns(fields, COLUMNS), parent_id: userId, deleted_at: null })
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToChild(row)
    },
    async update(id, patch) {
      const row = await db
        .updateTable('children')
        .set({ ...toColumns(patch, COLUMNS), updated_at: sql<Date>`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToChild(row)
    },
    async remove(id, at) {
      await db.updateTable('children').set({ deleted_at: at, updated_at: at }).where('id', '=', id).execute()
    },
  }
}
