import type { Kysely } from 'kysely'
import { ROLE_IDS } from '@tutoring/domain/shared'
import { TUTOR_VERIFICATION_KINDS, type TutorDirectory, type TutorVerifications } from '@tutoring/domain/tutors'
import type { Database } from '../db/database'
import { rowToUser } from '../accounts'

/** Read-only views of the records other contexts write about a tutor. */
export function tutorDirectory(db: Kysely<Database>): TutorDirectory {
  return {
    async findTutor(id) {
      const row = await db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .where('role_id', '=', ROLE_IDS.tutor)
        .executeTakeFirst()
      return row && rowToUser(row)
    },
    async profile(userId) {
      const row = await db
        .selectFrom('profiles as p')
        .leftJoin('files as pic', (j) => j.onRef('pic.id', '=', 'p.profile_picture_file_id').on('pic.deleted_at', 'is', null))
        .leftJoin('files as vid', (j) => j.onRef('vid.id', '=', 'p.profile_video_file_id').on('vid.deleted_at', 'is', null))
        .select(['p.id', 'p.bio', 'p.teacher_reference_number', 'p.tutoring_experience_months', 'p.is_visible', 'p.time_zone', 'p.created_at'])
        .select(['pic.id as picture_id', 'vid.id as video_id'])
        .where('p.user_id', '=', userId)
        .executeTakeFirst()
      return (
        row && {
          id: row.id,
          bio: row.bio,
          teacherReferenceNumber: row.teacher_reference_number,
          tutoringExperienceMonths: row.tutoring_experience_months,
          isVisible: row.is_visible,
          timeZone: row.time_zone,
          hasPicture: row.picture_id !== null,
          hasVideo: row.video_id !== null,
          createdAt: row.created_at,
        }
      )
    },
    async verifications(userId) {
      const rows = await db.selectFrom('verifications').select(['kind', 'status', 'reference']).where('user_id', '=', userId).execute()
      const none = { status: 'NONE' as const, reference: null }
      const result = Object.fromEntries(TUTOR_VERIFICATION_KINDS.map((kind) => [kind, none])) as TutorVerifications
      for (const row of rows) result[row.kind] = { status: row.status, reference: row.reference }
      return result
    },
    async languages(userId) {
      return db
        .selectFrom('user_languages as ul')
        .innerJoin('languages as l', 'l.id', 'ul.language_id')
        .select(['l.id', 'l.code', 'l.name'])
        .where('ul.user_id', '=', userId)
        .orderBy('l.name')
        .execute()
    },
    async personalDetails(userId) {
      const row = await db.selectFrom('personal_details').select(['id', 'date_of_birth', 'gender']).where('user_id', '=', userId).executeTakeFirst()
      return row && { id: row.id, dateOfBirth: row.date_of_birth, gender: row.gender }
    },
    async addresses(userId) {
      const rows = await db
        .selectFrom('addresses')
        .select(['id', 'line1', 'line2', 'city', 'postcode', 'country'])
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute()
      return rows.map((r) => ({ ...r, country: r.country.trim() }))
    },
    async mobileNumbers(userId) {
      return db.selectFrom('mobile_numbers').select(['id', 'number']).where('user_id', '=', userId).orderBy('id').execute()
    },
    async subscription(userId) {
      const row = await db
        .selectFrom('subscriptions')
        .select(['id', 'status', 'trial_ends_at', 'current_period_end'])
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .orderBy('id', 'desc')
        .executeTakeFirst()
      return row && { id: row.id, status: row.status, trialEndsAt: row.trial_ends_at, currentPeriodEnd: row.current_period_end }
    },
    async education(userId) {
      const rows = await db
        .selectFrom('education')
        .select(['institution', 'qualification', 'subject', 'start_year', 'end_year'])
        .where('user_id', '=', userId)
        .orderBy('start_year')
        .orderBy('id')
        .execute()
      return rows.map((r) => ({ institution: r.institution, qualification: r.qualification, subject: r.subject, startYear: r.start_year, endYear: r.end_year }))
    },
    async professions(userId) {
      const rows = await db
        .selectFrom('professions')
        .select(['title', 'organisation', 'start_date', 'end_date'])
        .where('user_id', '=', userId)
        .orderBy('start_date', 'desc')
        .orderBy('id', 'desc')
        .execute()
      return rows.map((r) => ({ title: r.title, organisation: r.organisation, startDate: r.start_date, endDate: r.end_date }))
    },
    async socialLinks(userId) {
      return db.selectFrom('social_links').select(['platform', 'url']).where('user_id', '=', userId).orderBy('id').execute()
    },
    async reviewStanding(userId) {
      const row = await db.selectFrom('tutor_ratings').select(['review_count', 'overall_rating']).where('tutor_id', '=', userId).executeTakeFirst()
      return { reviewCount: row?.review_count ?? 0, overallRating: row?.overall_rating ?? null }
    },
    async minutesTaught(userId) {
      const row = await db.selectFrom('tutor_hours').select('minutes_taught').where('tutor_id', '=', userId).executeTakeFirst()
      return row?.minutes_taught ?? 0
    },
  }
}
