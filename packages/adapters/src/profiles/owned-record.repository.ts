import { sql, type Insertable, type InsertType, type Kysely, type Selectable } from 'kysely'
import type { OwnedRecords } from '@tutoring/domain/profiles'
import type { Database } from '../db/database'
import { toColumns } from './column-names'

/** The tables of records a user keeps about themselves, one kind each. */
export type OwnedTable = 'education' | 'professions' | 'children' | 'addresses' | 'social_links' | 'mobile_numbers'
type Column<TB extends OwnedTable> = keyof Database[TB] & string
/** The columns of `TB` that take a value of type `V`. */
type ColumnFor<TB extends OwnedTable, V> = { [C in Column<TB>]: [V] extends [InsertType<Database[TB][C]>] ? C : never }[Column<TB>]

/** How one table holds one kind of owned record. */
export type OwnedRecordTable<TB extends OwnedTable, T, F> = {
  table: TB
  /** The column naming the owner (`parent_id` for children). */
  owner: Column<TB>
  /** The column of each domain field, which must take the field's type. */
  columns: { readonly [K in keyof Required<F>]: ColumnFor<TB, Required<F>[K]> }
  toRecord(row: Selectable<Database[TB]>): T
  /** How a user's list is ordered before `id`, which breaks ties. */
  order?: readonly (readonly [Column<TB>, 'asc' | 'desc'])[]
  /** Removed rows stay (lessons keep naming a removed child), and every read skips them. */
  softDelete?: boolean
}

/**
 * The one repository behind every `OwnedRecords` collection (education, professions,
 * children, addresses, social links, mobile numbers): the tables differ only in their
 * columns, the owner's column, their order and whether removal is soft.
 */
export function ownedRecordRepository<TB extends OwnedTable, T, F extends object>(
  db: Kysely<Database>,
  spec: OwnedRecordTable<TB, T, F>,
): OwnedRecords<T, F> {
  // Kysely's documented way to write one query for several tables.
  const { table, ref } = db.dynamic
  const toRecord = (row: unknown) => spec.toRecord(row as Selectable<Database[TB]>)
  const live = () => {
    const rows = db.selectFrom(table(spec.table).as('t')).selectAll()
    return spec.softDelete ? rows.where(ref('deleted_at'), 'is', null) : rows
  }
  return {
    async listByUser(userId) {
      let query = live().where(ref(spec.owner), '=', userId)
      for (const [column, direction] of spec.order ?? []) query = query.orderBy(ref(column), direction)
      const rows = await query.orderBy(ref('id')).execute()
      return rows.map(toRecord)
    },
    async findById(id) {
      const row = await live().where(ref('id'), '=', id).executeTakeFirst()
      return row && toRecord(row)
    },
    async insert(userId, fields) {
      const values = { ...toColumns(fields, spec.columns), [spec.owner]: userId }
      const row = await db
        .insertInto(spec.table)
        .values(values as Insertable<Database[TB]>)
        .returningAll()
        .executeTakeFirstOrThrow()
      return toRecord(row)
    },
    async update(id, patch) {
      let query = db.updateTable(table(spec.table).as('t')).set(ref('updated_at'), sql<Date>`now()`)
      for (const [column, value] of Object.entries(toColumns(patch, spec.columns))) query = query.set(ref(column), value)
      const row = await query.where(ref('id'), '=', id).returningAll().executeTakeFirstOrThrow()
      return toRecord(row)
    },
    async remove(id, at) {
      if (spec.softDelete) {
        await db.updateTable(table(spec.table).as('t')).set(ref('deleted_at'), at).set(ref('updated_at'), at).where(ref('id'), '=', id).execute()
      } else {
        await db.deleteFrom(table(spec.table).as('t')).where(ref('id'), '=', id).execute()
      }
    },
  }
}
