import { sql, type Kysely } from 'kysely'
import type { PageRequest } from '@tutoring/domain/shared'
import type { AvailableTeach, AvailableTeachFilter, Teach, TeachDraft, TeachRepository, Titled } from '@tutoring/domain/teaching'
import type { Database } from '../db/database'
import { isUniqueViolation } from '../db/unique-violation'

const OFFSET = (page: PageRequest) => (page.page - 1) * page.perPage

type TeachRowWithIds = {
  id: number
  tutor_id: number
  subject_id: number
  hourly_rate_pence: number
  enabled: boolean
  created_at: Date
  level_ids: number[]
  board_ids: number[]
}

export const rowToTeach = (row: TeachRowWithIds): Teach => ({
  id: row.id,
  tutorId: row.tutor_id,
  subjectId: row.subject_id,
  subjectLevelIds: row.level_ids.map(Number),
  examBoardIds: row.board_ids.map(Number),
  hourlyRatePence: row.hourly_rate_pence,
  enabled: row.enabled,
  createdAt: row.created_at,
})

export function teachRepository(db: Kysely<Database>): TeachRepository {
  const live = () =>
    db
      .selectFrom('teaches as t')
      .select(['t.id', 't.tutor_id', 't.subject_id', 't.hourly_rate_pence', 't.enabled', 't.created_at'])
      .select([
        sql<number[]>`coalesce((select array_agg(x.subject_level_id order by x.subject_level_id) from teach_subject_levels x where x.teach_id = t.id), '{}')`.as('level_ids'),
        sql<number[]>`coalesce((select array_agg(x.exam_board_id order by x.exam_board_id) from teach_exam_boards x where x.teach_id = t.id), '{}')`.as('board_ids'),
      ])
      .where('t.deleted_at', 'is', null)

  async function replaceLinks(teachId: number, draft: TeachDraft) {
    await db.deleteFrom('teach_subject_levels').where('teach_id', '=', teachId).execute()
    await db.deleteFrom('teach_exam_boards').where('teach_id', '=', teachId).execute()
    if (draft.subjectLevelIds.length > 0) {
      await db.insertInto('teach_subject_levels').values(draft.subjectLevelIds.map((id) => ({ teach_id: teachId, subject_level_id: id }))).execute()
    }
    if (draft.examBoardIds.length > 0) {
      await db.insertInto('teach_exam_boards').values(draft.examBoardIds.map((id) => ({ teach_id: teachId, exam_board_id: id }))).execute()
    }
  }

  async function byId(id: number): Promise<Teach | undefined> {
    const row = await live().where('t.id', '=', id).executeTakeFirst()
    return row && rowToTeach(row)
  }

  return {
    findById: byId,
    async findBySubject(tutorId, subjectId) {
      const row = await live().where('t.tutor_id', '=', tutorId).where('t.subject_id', '=', subjectId).executeTakeFirst()
      return row && rowToTeach(row)
    },
    async list(filter, page) {
      let query = live()
      if (filter.tutorId !== undefined) query = query.where('t.tutor_id', '=', filter.tutorId)
      const [rows, count] = await Promise.all([
        query.orderBy('t.id').limit(page.perPage).offset(OFFSET(page)).execute(),
        query.clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return { items: rows.map(rowToTeach), total: Number(count.n) }
    },
    async insert(tutorId, draft) {
      const row = await db
        .insertInto('teaches')
        .values({ tutor_id: tutorId, subject_id: draft.subjectId, hourly_rate_pence: draft.hourlyRatePence, enabled: draft.enabled, deleted_at: null })
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst()
      if (!row) return undefined
      await replaceLinks(row.id, draft)
      return byId(row.id)
    },
    async update(id, draft) {
      try {
        await db
          .updateTable('teaches')
          .set({ subject_id: draft.subjectId, hourly_rate_pence: draft.hourlyRatePence, enabled: draft.enabled, updated_at: sql<Date>`now()` })
          .where('id', '=', id)
          .execute()
      } catch (error) {
        // Another live teach of the subject appeared meanwhile; the caller's transaction rolls back.
        if (isUniqueViolation(error)) return undefined
        throw error
      }
      await replaceLinks(id, draft)
      return byId(id)
    },
    async softDelete(id, at) {
      await db.updateTable('teaches').set({ deleted_at: at, updated_at: at }).where('id', '=', id).execute()
    },
    listAvailable: (filter, page) => listAvailable(db, filter, page),
  }
}

type AvailableRow = TeachRowWithIds & { subject_title: string; levels: Titled[]; boards: Titled[] }

async function listAvailable(db: Kysely<Database>, filter: AvailableTeachFilter, page: PageRequest) {
  let query = db
    .selectFrom('teaches as t')
    .innerJoin('users as u', 'u.id', 't.tutor_id')
    .innerJoin('subjects as s', 's.id', 't.subject_id')
    .where('t.deleted_at', 'is', null)
    .where('t.enabled', '=', true)
    .where('u.deleted_at', 'is', null)
    .where('u.role_id', '=', 3)
    // The domain's isBookable in SQL: every verification passed and a valid subscription.
    .where(sql<boolean>`(select count(*) from verifications v where v.user_id = t.tutor_id and v.status = 'PASS' and v.kind in ('identity', 'dbs', 'qualification')) = 3`)
    .where(sql<boolean>`exists (select 1 from subscriptions s where s.user_id = t.tutor_id and s.deleted_at is null and s.status in ('trialing', 'active'))`)
  if (filter.tutorId !== undefined) query = query.where('t.tutor_id', '=', filter.tutorId)
  if (filter.subjectId !== undefined) query = query.where('t.subject_id', '=', filter.subjectId)
  if (filter.subjectLevelId !== undefined) {
    const levelId = filter.subjectLevelId
    query = query.where((eb) =>
      eb.exists(eb.selectFrom('teach_subject_levels as f').select('f.teach_id').whereRef('f.teach_id', '=', 't.id').where('f.subject_level_id', '=', levelId)),
    )
  }
  if (filter.examBoardId !== undefined) {
    const boardId = filter.examBoardId
    query = query.where((eb) =>
      eb.exists(eb.selectFrom('teach_exam_boards as f').select('f.teach_id').whereRef('f.teach_id', '=', 't.id').where('f.exam_board_id', '=', boardId)),
    )
  }
  const rows = (await query
    .select(['t.id', 't.tutor_id', 't.subject_id', 't.hourly_rate_pence', 't.enabled', 't.created_at', 's.title as subject_title'])
    .select([
      sql<Titled[]>`coalesce((select json_agg(json_build_object('id', l.id, 'title', l.title) order by l.id) from teach_subject_levels x join subject_levels l on l.id = x.subject_level_id where x.teach_id = t.id), '[]'::json)`.as('levels'),
      sql<Titled[]>`coalesce((select json_agg(json_build_object('id', b.id, 'title', b.title) order by b.id) from teach_exam_boards x join exam_boards b on b.id = x.exam_board_id where x.teach_id = t.id), '[]'::json)`.as('boards'),
    ])
    .orderBy('t.id')
    .limit(page.perPage)
    .offset(OFFSET(page))
    .execute()) as Array<Omit<AvailableRow, 'level_ids' | 'board_ids'>>
  const count = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  const items: AvailableTeach[] = rows.map((row) => ({
    ...rowToTeach({ ...row, level_ids: row.levels.map((l) => l.id), board_ids: row.boards.map((b) => b.id) }),
    subject: { id: row.subject_id, title: row.subject_title },
    subjectLevels: row.levels,
    examBoards: row.boards,
  }))
  return { items, total: Number(count.n) }
}
