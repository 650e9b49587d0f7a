import { sql, type Kysely } from 'kysely'
import type { CatalogRepository, LessonLocation } from '@tutoring/domain/catalog'
import type { Database } from '../db/database'

export function catalogRepository(db: Kysely<Database>): CatalogRepository {
  return {
    async subjects({ subjectLevelId }) {
      let query = db
        .selectFrom('subjects as s')
        .select((eb) => [
          's.id',
          's.title',
          's.group',
          eb.fn
            .coalesce(
              sql<number[]>`array_agg(ssl.subject_level_id order by ssl.subject_level_id) filter (where ssl.subject_level_id is not null)`,
              sql<number[]>`'{}'::int[]`,
            )
            .as('level_ids'),
        ])
        .leftJoin('subject_subject_levels as ssl', 'ssl.subject_id', 's.id')
        .groupBy('s.id')
        .orderBy('s.title')
      if (subjectLevelId !== undefined) {
        query = query.where((eb) =>
          eb.exists(
            eb
              .selectFrom('subject_subject_levels as f')
              .select('f.subject_id')
              .whereRef('f.subject_id', '=', 's.id')
              .where('f.subject_level_id', '=', subjectLevelId),
          ),
        )
      }
      const rows = await query.execute()
      return rows.map((r) => ({ id: r.id, title: r.title, group: r.group, subjectLevelIds: r.level_ids.map(Number) }))
    },
    async subjectLevels({ subjectId }) {
      let query = db.selectFrom('subject_levels as l').select(['l.id', 'l.title']).orderBy('l.position').orderBy('l.id')
      if (subjectId !== undefined) {
        query = query
          .innerJoin('subject_subject_levels as ssl', 'ssl.subject_level_id', 'l.id')
          .where('ssl.subject_id', '=', subjectId)
      }
      return query.execute()
    },
    examBoards: () => db.selectFrom('exam_boards').select(['id', 'title']).orderBy('title').execute(),
    async countries() {
      const rows = await db.selectFrom('countries').select(['id', 'code', 'name']).orderBy('name').execute()
      return rows.map((r) => ({ ...r, code: r.code.trim() }))
    },
    languages: () => db.selectFrom('languages').select(['id', 'code', 'name']).orderBy('name').execute(),
    async lessonLocations() {
      const rows = await db.selectFrom('lesson_locations').select(['id', 'name', 'slug', 'title']).orderBy('id').execute()
      return rows as LessonLocation[]
    },
    async cancellationPolicy() {
      const rows = await db
        .selectFrom('cancellation_policies')
        .select(['id', 'hours_before_start', 'refund_percent'])
        .orderBy('hours_before_start', 'desc')
        .execute()
      return rows.map((r) => ({ id: r.id, hoursBeforeStart: r.hours_before_start, refundPercent: r.refund_percent }))
    },
    async lessonPriceSettings() {
      const row = await db.selectFrom('lesson_price_settings').selectAll().where('id', '=', 1).executeTakeFirstOrThrow()
      return {
        minHourlyRatePence: row.min_hourly_rate_pence,
        maxHourlyRatePence: row.max_hourly_rate_pence,
        defaultHourlyRatePence: row.default_hourly_rate_pence,
      }
    },
    async activeServiceNotices(now) {
      const rows = await db
        .selectFrom('service_notices')
        .selectAll()
        .where('starts_at', '<=', now)
        .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]))
        .orderBy('starts_at', 'desc')
        .execute()
      return rows.map((r) => ({
        id: r.id,
        title: r.title,
        message: r.message,
        severity: r.severity,
        startsAt: r.starts_at,
        endsAt: r.ends_at,
      }))
    },
  }
}
