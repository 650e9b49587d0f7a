import { sql, type Expression, type Kysely } from 'kysely'
import type { BookableTeach, BookableTeachReader } from '@tutoring/domain/availability'
import { ROLE_IDS } from '@tutoring/domain/shared'
import type { TutorBookability } from '@tutoring/domain/teaching'
import type { Database } from '../db/database'
import { rowToTeach } from '../teaching'
import { compiledOnce } from '../db/prepared-statements'

/** The statuses as teaching's bookability rule reads them (verification's and subscriptions' own types). */
type VerificationStatus = TutorBookability['verifications']['identity']
type SubscriptionStatus = NonNullable<TutorBookability['subscriptionStatus']>

const verificationOf = (kind: string) =>
  sql<VerificationStatus>`coalesce((select v.status from verifications v where v.user_id = t.tutor_id and v.kind = ${kind}), 'NONE')`

/**
 * A live, enabled teach of a live tutor, with its tutor's zone, calendar feed, verifications and
 * subscription: one statement, to which the slot facts' reader adds the tutor's facts.
 */
export const bookableTeachQuery = (db: Kysely<Database>, teachId: Expression<number>) =>
  db
    .selectFrom('teaches as t')
    .innerJoin('users as u', 'u.id', 't.tutor_id')
    .leftJoin('profiles as p', 'p.user_id', 't.tutor_id')
    .select(['t.id', 't.tutor_id', 't.subject_id', 't.hourly_rate_pence', 't.enabled', 't.created_at', 'p.time_zone', 'p.calendar_feed_url'])
    .select([
      sql<number[]>`coalesce((select array_agg(x.subject_level_id order by x.subject_level_id) from teach_subject_levels x where x.teach_id = t.id), '{}')`.as('level_ids'),
      sql<number[]>`coalesce((select array_agg(x.exam_board_id order by x.exam_board_id) from teach_exam_boards x where x.teach_id = t.id), '{}')`.as('board_ids'),
      verificationOf('identity').as('identity'),
      verificationOf('dbs').as('dbs'),
      verificationOf('qualification').as('qualification'),
      sql<SubscriptionStatus | null>`(select s.status from subscriptions s where s.user_id = t.tutor_id and s.deleted_at is null)`.as('subscription_status'),
    ])
    .where('t.id', '=', teachId)
    .where('t.deleted_at', 'is', null)
    .where('t.enabled', '=', true)
    .where('u.deleted_at', 'is', null)
    .where('u.role_id', '=', ROLE_IDS.tutor)

export type BookableTeachRow = Parameters<typeof rowToTeach>[0] & {
  time_zone: string | null
  calendar_feed_url: string | null
  identity: VerificationStatus
  dbs: VerificationStatus
  qualification: VerificationStatus
  subscription_status: SubscriptionStatus | null
}

export const rowToBookableTeach = (row: BookableTeachRow): BookableTeach => ({
  teach: rowToTeach(row),
  tutor: { verifications: { identity: row.identity, dbs: row.dbs, qualification: row.qualification }, subscriptionStatus: row.subscription_status },
  timeZone: row.time_zone ?? 'Europe/London',
  calendarFeedUrl: row.calendar_feed_url ?? null,
})

/** Booking's first read: compiled once, bound per call. */
const bookableTeachStatement = compiledOnce<{ teachId: number }, BookableTeachRow>((db, value) => bookableTeachQuery(db, value('teachId')).compile())

export function bookableTeachRepository(db: Kysely<Database>): BookableTeachReader {
  return {
    async findBookableTeach(teachId) {
      const { rows } = await db.executeQuery(bookableTeachStatement(db, { teachId }))
      return rows[0] && rowToBookableTeach(rows[0])
    },
  }
}
