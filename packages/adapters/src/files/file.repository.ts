import type { Kysely } from 'kysely'
import { isFilePurpose, type FileRepository, type StoredFile } from '@tutoring/domain/files'
import type { Database } from '../db/database'
import type { FileRow } from './files.table'

export const rowToStoredFile = (row: FileRow): StoredFile => ({
  id: row.id,
  ownerId: row.owner_id,
  purpose: isFilePurpose(row.purpose) ? row.purpose : 'general',
  name: row.name,
  mimeType: row.mime_type,
  size: Number(row.size),
  storageKey: row.storage_key,
  createdAt: row.created_at,
})

export function fileRepository(db: Kysely<Database>): FileRepository {
  const live = () => db.selectFrom('files').selectAll().where('deleted_at', 'is', null)
  return {
    async insert(file, at) {
      const row = await db
        .insertInto('files')
        .values({
          id: file.id,
          owner_id: file.ownerId,
          purpose: file.purpose,
          name: file.name,
          mime_type: file.mimeType,
          size: file.size,
          storage_key: file.storageKey,
          created_at: at,
          deleted_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToStoredFile(row)
    },
    async findById(id) {
      const row = await live().where('id', '=', id).executeTakeFirst()
      return row && rowToStoredFile(row)
    },
    async listByOwner(ownerId, { page, perPage }) {
      const [rows, count] = await Promise.all([
        live()
          .where('owner_id', '=', ownerId)
          .orderBy('created_at', 'desc')
          .orderBy('id')
          .limit(perPage)
          .offset((page - 1) * perPage)
          .execute(),
        db
          .selectFrom('files')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('deleted_at', 'is', null)
          .where('owner_id', '=', ownerId)
          .executeTakeFirstOrThrow(),
      ])
      return { items: rows.map(rowToStoredFile), total: Number(count.n) }
    },
    async rename(id, name) {
      const row = await db.updateTable('files').set({ name }).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
      return rowToStoredFile(row)
    },
    async softDelete(id, at) {
      await db.updateTable('files').set({ deleted_at: at }).where('id', '=', id).where('deleted_at', 'is', null).execute()
    },
  }
}
