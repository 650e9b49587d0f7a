import { sql, type Kysely, type Transaction } from 'kysely'
import { dayIndexOf, dayNameOf, type DaySchedule, type DayScheduleDraft, type DayScheduleRepository } from '@tutoring/domain/schedule'
import type { LessonTypeName, WithoutLocks } from '@tutoring/domain/shared'
import type { Database } from '../db/database'
import { lockUserRow, type Locks } from '../db/row-locks'
import type { DayAvailabilityRow, DayAvailabilitySlotRow } from './day-availabilities.table'

/** `09:00:00` -> `09:00` (and `24:00:00` -> `24:00`). */
const hhmm = (time: string): string => time.slice(0, 5)

const rowToDaySchedule = (row: DayAvailabilityRow, slots: readonly DayAvailabilitySlotRow[]): DaySchedule => ({
  id: row.id,
  tutorId: row.tutor_id,
  day: dayNameOf(row.day),
  slots: slots
    .filter((s) => s.day_availability_id === row.id)
    .sort((a, b) => a.starts_at.localeCompare(b.starts_at))
    .map((s) => ({ from: hhmm(s.starts_at), to: hhmm(s.ends_at) })),
  lessonTypes: row.lesson_types as LessonTypeName[],
  bufferMinutes: row.buffer_minutes,
  subjectId: row.subject_id,
  subjectLevelId: row.subject_level_id,
  examBoardId: row.exam_board_id,
})

const entryColumns = (draft: DayScheduleDraft) => ({
  day: dayIndexOf(draft.day),
  lesson_types: sql<string[]>`array[${sql.join(draft.lessonTypes)}]::text[]` as unknown as string[],
  buffer_minutes: draft.bufferMinutes,
  subject_id: draft.subjectId,
  subject_level_id: draft.subjectLevelId,
  exam_board_id: draft.examBoardId,
})

export function dayScheduleRepository(db: Kysely<Database>): WithoutLocks<DayScheduleRepository> {
  async function withSlots(rows: DayAvailabilityRow[]): Promise<DaySchedule[]> {
    if (rows.length === 0) return []
    const slots = await db
      .selectFrom('day_availability_slots')
      .selectAll()
      .where('day_availability_id', 'in', rows.map((r) => r.id))
      .execute()
    return rows.map((row) => rowToDaySchedule(row, slots))
  }

  async function writeSlots(entryId: number, tutorId: number, draft: DayScheduleDraft) {
    await db.deleteFrom('day_availability_slots').where('day_availability_id', '=', entryId).execute()
    await db
      .insertInto('day_availability_slots')
      .values(draft.slots.map((s) => ({ day_availability_id: entryId, tutor_id: tutorId, day: dayIndexOf(draft.day), starts_at: s.from, ends_at: s.to })))
      .execute()
  }

  const ordered = () =>
    db
      .selectFrom('day_availabilities as d')
      .selectAll('d')
      .orderBy('d.tutor_id')
      .orderBy('d.day')
      .orderBy(sql`(select min(s.starts_at) from day_availability_slots s where s.day_availability_id = d.id)`)
      .orderBy('d.id')

  return {
    async findById(id) {
      const row = await db.selectFrom('day_availabilities').selectAll().where('id', '=', id).executeTakeFirst()
      return row ? (await withSlots([row]))[0] : undefined
    },
    async listForTutor(tutorId) {
      return withSlots(await ordered().where('d.tutor_id', '=', tutorId).execute())
    },
    async list(filter, page) {
      let query = ordered()
      let counting = db.selectFrom('day_availabilities as d').select((eb) => eb.fn.countAll<number>().as('n'))
      if (filter.tutorId !== undefined) {
        query = query.where('d.tutor_id', '=', filter.tutorId)
        counting = counting.where('d.tutor_id', '=', filter.tutorId)
      }
      const [rows, count] = await Promise.all([
        query.limit(page.perPage).offset((page.page - 1) * page.perPage).execute(),
        counting.executeTakeFirstOrThrow(),
      ])
      return { items: await withSlots(rows), total: Number(count.n) }
    },
    async insert(tutorId, draft) {
      const row = await db
        .insertInto('day_availabilities')
        .values({ tutor_id: tutorId, ...entryColumns(draft) })
        .returningAll()
        .executeTakeFirstOrThrow()
      await writeSlots(row.id, tutorId, draft)
      return (await withSlots([row]))[0]!
    },
    async update(id, draft) {
      const row = await db
        .updateTable('day_availabilities')
        .set({ ...entryColumns(draft), updated_at: sql<Date>`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
      await writeSlots(row.id, row.tutor_id, draft)
      return (await withSlots([row]))[0]!
    },
    async delete(id) {
      await db.deleteFrom('day_availabilities').where('id', '=', id).execute()
    },
  }
}

export function dayScheduleLocks(trx: Transaction<Database>): Locks<DayScheduleRepository> {
  return { lockTutor: (tutorId) => lockUserRow(trx, tutorId) }
}
