import { sql, type Kysely } from 'kysely'
import type { CalendarFeedRepository } from '@tutoring/domain/availability'
import type { Database } from '../db/database'

/** The tutor's external calendar feed, kept on the profile. */
export function calendarFeedRepository(db: Kysely<Database>): CalendarFeedRepository {
  return {
    async findForTutor(tutorId) {
      const row = await db.selectFrom('profiles').select('calendar_feed_url').where('user_id', '=', tutorId).executeTakeFirst()
      return row?.calendar_feed_url ?? null
    },
    async setForTutor(tutorId, url) {
      await db.updateTable('profiles').set({ calendar_feed_url: url, updated_at: sql<Date>`now()` }).where('user_id', '=', tutorId).execute()
    },
  }
}
