import { sql, type Kysely, type Transaction } from 'kysely'
import { criterionMean, overallRating, type LessonNote, type NoteRepository, type ReviewRepository, type ReviewTotals } from '@tutoring/domain'
import type { Database } from '../db/database'
import type { Locks } from '../db/row-locks'
import type { NoteRow } from './notes.table'
import { isUniqueViolation } from '../db/unique-violation'

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

/** Each tutor's review count and summed marks, the facts the rating rules work from; a tutor with no review is absent. */
export async function reviewTotals(db: Kysely<Database>, tutorIds: readonly number[]): Promise<Map<number, ReviewTotals>> {
  if (tutorIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('reviews')
    .select((eb) => [
      'tutor_id',
      eb.fn.countAll<string>().as('count'),
      eb.fn.sum<string>('knowledge').as('knowledge'),
      eb.fn.sum<string>('communication').as('communication'),
      eb.fn.sum<string>('punctuality').as('punctuality'),
    ])
    .where('tutor_id', 'in', [...tutorIds])
    .groupBy('tutor_id')
    .execute()
  return new Map(
    rows.map((r) => [
      Number(r.tutor_id),
      { count: Number(r.count), knowledge: Number(r.knowledge), communication: Number(r.communication), punctuality: Number(r.punctuality) },
    ]),
  )
}

const NO_REVIEWS: ReviewTotals = { count: 0, knowledge: 0, communication: 0, punctuality: 0 }

export function reviewRepository(db: Kysely<Database>): Omit<ReviewRepository, 'lockRating'> {
  return {
    async isTutor(tutorId) {
      const row = await db.selectFrom('users').select('id').where('id', '=', tutorId).where('role_id', '=', 3).where('deleted_at', 'is', null).executeTakeFirst()
      return row !== undefined
    },
    async insert(tutorId, reviewerId, draft) {
      try {
        const row = await db
          .insertInto('reviews')
          .values({ tutor_id: tutorId, reviewer_id: reviewerId, ...draft })
          .returning('id')
          .executeTakeFirstOrThrow()
        return { id: row.id }
      } catch (error) {
        if (isUniqueViolation(error)) return undefined
        throw error
      }
    },
    async totals(tutorId) {
      return (await reviewTotals(db, [tutorId])).get(tutorId) ?? NO_REVIEWS
    },
    async saveRating(tutorId, rating) {
      await db
        .insertInto('tutor_ratings')
        .values({ tutor_id: tutorId, review_count: rating.reviewCount, overall_rating: rating.overallRating })
        .onConflict((oc) => oc.column('tutor_id').doUpdateSet({ review_count: rating.reviewCount, overall_rating: rating.overallRating, updated_at: sql`now()` }))
        .execute()
    },
    async summary(tutorId) {
      const [totals, latest] = await Promise.all([
        reviewTotals(db, [tutorId]).then((byTutor) => byTutor.get(tutorId) ?? NO_REVIEWS),
        db.selectFrom('reviews').selectAll().where('tutor_id', '=', tutorId).orderBy('id', 'desc').limit(10).execute(),
      ])
      return {
        tutorId,
        count: totals.count,
        average: overallRating(totals),
        criteria: {
          knowledge: criterionMean(totals.knowledge, totals.count),
          communication: criterionMean(totals.communication, totals.count),
          punctuality: criterionMean(totals.punctuality, totals.count),
        },
        latest: latest.map((r) => ({
          id: r.id,
          reviewerId: r.reviewer_id,
          knowledge: r.knowledge,
          communication: r.communication,
          punctuality: r.punctuality,
          comment: r.comment,
          createdAt: r.created_at,
        })),
      }
    },
  }
}

/** The tutor's rating row, made if missing, held FOR UPDATE by the upsert itself. */
export function reviewLocks(trx: Transaction<Database>): Locks<ReviewRepository> {
  return {
    async lockRating(tutorId) {
      await trx
        .insertInto('tutor_ratings')
        .values({ tutor_id: tutorId, overall_rating: null })
        .onConflict((oc) => oc.column('tutor_id').doUpdateSet({ tutor_id: tutorId }))
        .execute()
    },
  }
}
