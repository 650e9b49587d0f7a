import type { Kysely } from 'kysely'
import type { HolidayRepository, TutorHoliday } from '@tutoring/domain/schedule'
import type { Database } from '../db/database'
import type { HolidayRow } from './holidays.table'

const rowToHoliday = (row: HolidayRow): TutorHoliday => ({
  id: row.id,
  tutorId: row.tutor_id,
  startDate: row.start_date,
  endDate: row.end_date,
})

export function holidayRepository(db: Kysely<Database>): HolidayRepository {
  const all = () => db.selectFrom('holidays').selectAll()
  return {
    async findById(id) {
      const row = await all().where('id', '=', id).executeTakeFirst()
      return row && rowToHoliday(row)
    },
    async listForTutor(tutorId) {
      const rows = await all().where('tutor_id', '=', tutorId).orderBy('start_date').orderBy('id').execute()
      return rows.map(rowToHoliday)
    },
    async list(filter, page) {
      let query = all()
      if (filter.tutorId !== undefined) query = query.where('tutor_id', '=', filter.tutorId)
      const [rows, count] = await Promise.all([
        query.orderBy('tutor_id').orderBy('start_date').orderBy('id').limit(page.perPage).offset((page.page - 1) * page.perPage).execute(),
        query.clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return { items: rows.map(rowToHoliday), total: Number(count.n) }
    },
    async insert(tutorId, draft) {
      const row = await db
        .insertInto('holidays')
        .values({ tutor_id: tutorId, start_date: draft.startDate, end_date: draft.endDate })
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToHoliday(row)
    },
    async delete(id) {
      await db.deleteFrom('holidays').where('id', '=', id).execute()
    },
  }
}
