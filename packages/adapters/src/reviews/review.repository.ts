import { sql, type Kysely, type Selectable, type Transaction } from 'kysely'
import { criterionMean, overallRating, type ReviewRepository, type ReviewTotals } from '@tutoring/domain/reviews'
import type { Database } from '../db/database'
import type { Locks } from '../db/row-locks'
import type { ReviewsTable } from './reviews.table'
import { isUniqueViolation } from '../db/unique-violation'

/** Each tutor's review count and summed marks, the facts the rating rules work from; a tutor with no review is absent. */
async function reviewTotals(db: Kysely<Database>, tutorIds: readonly number[]): Promise<Map<number, ReviewTotals>> {
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

const rowToReview = (r: Selectable<ReviewsTable>) => ({
  id: r.id,
  reviewerId: r.reviewer_id,
  knowledge: r.knowledge,
  communication: r.communication,
  punctuality: r.punctuality,
  comment: r.comment,
  createdAt: r.created_at,
})

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
        latest: latest.map(rowToReview),
      }
    },
    async findById(id) {
      const row = await db.selectFrom('reviews').selectAll().where('id', '=', id).executeTakeFirst()
      return row && { ...rowToReview(row), tutorId: row.tutor_id }
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
