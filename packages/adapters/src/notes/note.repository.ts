import { sql, type Kysely } from 'kysely'
import type { LessonNote } from '@tutoring/domain/booking'
import type { NoteRepository } from '@tutoring/domain/notes'
import type { Database } from '../db/database'
import type { NoteRow } from './notes.table'

const OFFSET = (page: { page: number; perPage: number }) => (page.page - 1) * page.perPage

const rowToNote = (row: NoteRow & { file_ids: string[] }): LessonNote => ({
  id: row.id,
  lessonId: row.lesson_id,
  authorId: row.author_id,
  text: row.text,
  summary: row.summary,
  fileIds: row.file_ids,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
})

export function noteRepository(db: Kysely<Database>): NoteRepository {
  const notes = () =>
    db
      .selectFrom('notes as n')
      .innerJoin('lessons as l', 'l.id', 'n.lesson_id')
      .innerJoin('bookings as b', 'b.lesson_id', 'l.id')
      .selectAll('n')
      .select(sql<string[]>`coalesce((select array_agg(f.file_id::text order by f.file_id) from note_files f where f.note_id = n.id), '{}')`.as('file_ids'))
  async function byId(id: number) {
    const row = await notes().where('n.id', '=', id).executeTakeFirst()
    return row && rowToNote(row)
  }
  async function replaceFiles(noteId: number, fileIds: string[]) {
    await db.deleteFrom('note_files').where('note_id', '=', noteId).execute()
    if (fileIds.length > 0) await db.insertInto('note_files').values(fileIds.map((file_id) => ({ note_id: noteId, file_id }))).execute()
  }
  return {
    findById: byId,
    async list(filter, page) {
      let query = notes()
      if (filter.partyId !== undefined) {
        const id = filter.partyId
        query = query.where((eb) => eb.or([eb('l.tutor_id', '=', id), eb('l.student_id', '=', id), eb('b.user_id', '=', id)]))
      }
      const [rows, count] = await Promise.all([
        query.orderBy('n.id', 'desc').limit(page.perPage).offset(OFFSET(page)).execute(),
        query.clearSelect().select((eb) => eb.fn.countAll<number>().as('c')).executeTakeFirstOrThrow(),
      ])
      return { items: rows.map(rowToNote), total: Number(count.c) }
    },
    async insert(lessonId, authorId, draft) {
      const row = await db.insertInto('notes').values({ lesson_id: lessonId, author_id: authorId, text: draft.text, summary: draft.summary }).returning('id').executeTakeFirstOrThrow()
      await replaceFiles(row.id, draft.fileIds)
      return (await byId(row.id))!
    },
    async update(id, draft) {
      await db.updateTable('notes').set({ text: draft.text, summary: draft.summary, updated_at: sql<Date>`now()` }).where('id', '=', id).execute()
      await replaceFiles(id, draft.fileIds)
      return (await byId(id))!
    },
    async delete(id) {
      await db.deleteFrom('notes').where('id', '=', id).execute()
    },
    async ownFileIds(userId, fileIds) {
      if (fileIds.length === 0) return []
      const rows = await db.selectFrom('files').select('id').where('owner_id', '=', userId).where('id', 'in', [...fileIds]).execute()
      return rows.map((r) => String(r.id))
    },
  }
}
