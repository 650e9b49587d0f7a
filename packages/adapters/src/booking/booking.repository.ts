import { sql, type Kysely, type Transaction } from 'kysely'
import {
  BOOKING_STATES,
  bookingStateOf,
  type BookingAggregate,
  type BookingRecord,
  type BookingRepository,
  type LessonRecord,
} from '@tutoring/domain/booking'
import { LESSON_STATES, lessonStateOf, type LessonSide } from '@tutoring/domain/lesson'
import { LESSON_TYPE_IDS, lessonTypeName, type Clock, type RoleId, type WithoutLocks } from '@tutoring/domain/shared'
import { hoursTaught } from '@tutoring/domain/tutors'
import type { Database } from '../db/database'
import { lockUserRow, lockUserRows, type Locks } from '../db/row-locks'
import type { BookingRow } from './bookings.table'
import type { LessonRow } from './lessons.table'
import { rowToPayment } from '../booking-payments/payment.repository'

/** PostgreSQL's exclusion_violation: another live lesson of the tutor overlaps. */
export const isExclusionViolation = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23P01'

const OFFSET = (page: { page: number; perPage: number }) => (page.page - 1) * page.perPage

const sideOf = (lesson: Pick<LessonRow, 'proposed_by' | 'tutor_id'>): LessonSide | null =>
  lesson.proposed_by === null ? null : Number(lesson.proposed_by) === Number(lesson.tutor_id) ? 'tutor' : 'student'

export const rowToLesson = (row: LessonRow): LessonRecord => {
  const state = lessonStateOf(row.state)
  const type = lessonTypeName(row.lesson_type)
  if (!state || !type) throw new Error(`lesson ${row.id} has an unknown state or type`)
  return {
    id: row.id,
    tutorId: row.tutor_id,
    studentId: row.student_id,
    teachId: row.teach_id,
    subjectId: row.subject_id,
    subjectLevelId: row.subject_level_id,
    examBoardId: row.exam_board_id,
    lessonType: type,
    state,
    start: row.start_at,
    finish: row.finish_at,
    suggestedStart: row.suggested_start_at,
    suggestedFinish: row.suggested_finish_at,
    proposedBy: sideOf(row),
    proposalExpiresAt: row.proposal_expires_at,
    address: row.address,
    meetingUrl: row.meeting_url,
    experienceRating: row.experience_rating,
    cancelledAt: row.cancelled_at,
  }
}

export const rowToBooking = (row: BookingRow): BookingRecord => {
  const state = bookingStateOf(row.state)
  if (!state) throw new Error(`booking ${row.id} has an unknown state`)
  return {
    id: row.id,
    lessonId: row.lesson_id,
    userId: row.user_id,
    state,
    holdExpiresAt: row.hold_expires_at,
    lessonPricePence: row.lesson_price_pence,
    serviceFeePence: row.service_fee_pence,
    discountPence: row.discount_pence,
    totalPence: row.total_pence,
    refundedPence: row.refunded_pence,
    couponUid: row.coupon_uid,
    note: row.note,
    createdAt: row.created_at,
  }
}

type PersonRow = { id: number; firstname: string; lastname: string; email: string; username: string; role_id: number }
const rowToPerson = (row: PersonRow) => ({
  id: row.id,
  firstname: row.firstname,
  lastname: row.lastname,
  email: row.email,
  username: row.username,
  roleId: row.role_id as RoleId,
})

/**
 * Reads booking details on one executor; `lock` holds the booking and lesson rows (in a
 * transaction only). The tutor's hours taught and rating are the tutors context's rules,
 * applied to the lessons and review totals read here, at the clock's now.
 */
function aggregateReader(db: Kysely<Database>, clock: Clock) {
  /**
   * The detail of each booking, in the order of `bookingIds`, in a fixed number of queries
   * however many there are (a list page reads no more than one booking does).
   */
  async function aggregates(bookingIds: readonly number[], lock: boolean): Promise<BookingAggregate[]> {
    if (bookingIds.length === 0) return []
    let bookingQuery = db.selectFrom('bookings').selectAll().where('id', 'in', [...bookingIds])
    if (lock) bookingQuery = bookingQuery.forUpdate()
    const bookings = await bookingQuery.execute()
    if (bookings.length === 0) return []
    let lessonQuery = db.selectFrom('lessons').selectAll().where('id', 'in', bookings.map((b) => b.lesson_id))
    if (lock) lessonQuery = lessonQuery.forUpdate()
    const lessons = await lessonQuery.execute()
    const lessonIds = lessons.map((l) => l.id)
    const tutorIds = [...new Set(lessons.map((l) => l.tutor_id))]
    const [people, children, subjects, levels, payments, events, notes, taught, reviews] = await Promise.all([
      db
        .selectFrom('users')
        .select(['id', 'firstname', 'lastname', 'email', 'username', 'role_id'])
        .where('id', 'in', [...new Set([...tutorIds, ...bookings.map((b) => b.user_id)])])
        .execute(),
      db
        .selectFrom('lesson_children as lc')
        .innerJoin('children as c', 'c.id', 'lc.child_id')
        .select(['lc.lesson_id', 'c.id', 'c.firstname', 'c.lastname'])
        .where('lc.lesson_id', 'in', lessonIds)
        .orderBy('c.id')
        .execute(),
      db.selectFrom('subjects').select(['id', 'title']).where('id', 'in', [...new Set(lessons.map((l) => l.subject_id))]).execute(),
      db.selectFrom('subject_levels').select(['id', 'title']).where('id', 'in', [...new Set(lessons.map((l) => l.subject_level_id))]).execute(),
      db
        .selectFrom('payments')
        .selectAll()
        .distinctOn('booking_id')
        .where('booking_id', 'in', bookings.map((b) => b.id))
        .orderBy('booking_id')
        .orderBy('id', 'desc')
        .execute(),
      db.selectFrom('booking_events').selectAll().where('booking_id', 'in', bookings.map((b) => b.id)).orderBy('id').execute(),
      db
        .selectFrom('notes as n')
        .selectAll('n')
        .select(sql<string[]>`coalesce((select array_agg(f.file_id::text order by f.file_id) from note_files f where f.note_id = n.id), '{}')`.as('file_ids'))
        .where('n.lesson_id', 'in', lessonIds)
        .orderBy('n.id')
        .execute(),
      db
        .selectFrom('lessons')
        .select(['tutor_id', 'start_at', 'finish_at'])
        .where('tutor_id', 'in', tutorIds)
        .where('state', '<>', LESSON_STATES.CANCELLED)
        .execute(),
      db.selectFrom('tutor_ratings').select(['tutor_id', 'overall_rating']).where('tutor_id', 'in', tutorIds).execute(),
    ])
    const byId = <T extends { id: number }>(rows: readonly T[]) => new Map(rows.map((r) => [Number(r.id), r]))
    const lessonById = byId(lessons)
    const personById = byId(people)
    const subjectById = byId(subjects)
    const levelById = byId(levels)
    const bookingById = byId(bookings)
    const paymentOf = new Map(payments.map((p) => [Number(p.booking_id), p]))
    // The rating the review use case stored with the tutor's latest review.
    const ratingOf = new Map(reviews.map((r) => [Number(r.tutor_id), r.overall_rating]))
    const now = clock.now()
    const hoursOf = new Map(
      tutorIds.map((tutorId) => [
        Number(tutorId),
        hoursTaught(
          taught.filter((l) => Number(l.tutor_id) === Number(tutorId)).map((l) => ({ start: l.start_at, finish: l.finish_at })),
          now,
        ),
      ]),
    )
    return bookingIds.flatMap((id) => {
      const booking = bookingById.get(Number(id))
      if (!booking) return []
      const lesson = lessonById.get(Number(booking.lesson_id))!
      const tutor = personById.get(Number(lesson.tutor_id))!
      const booker = personById.get(Number(booking.user_id))!
      const payment = paymentOf.get(Number(booking.id))
      return [
        {
          booking: rowToBooking(booking),
          lesson: rowToLesson(lesson),
          tutor: { ...rowToPerson(tutor), hoursTaught: hoursOf.get(Number(lesson.tutor_id)) ?? 0, rating: ratingOf.get(Number(lesson.tutor_id)) ?? null },
          booker: rowToPerson(booker),
          children: children.filter((c) => Number(c.lesson_id) === Number(lesson.id)).map(({ id, firstname, lastname }) => ({ id, firstname, lastname })),
          subject: subjectById.get(Number(lesson.subject_id))!,
          subjectLevel: levelById.get(Number(lesson.subject_level_id))!,
          payment: payment ? rowToPayment(payment) : null,
          events: events
            .filter((e) => Number(e.booking_id) === Number(booking.id))
            .map((e) => ({ id: e.id, kind: e.kind, actorId: e.actor_id, data: e.data, at: e.created_at })),
          notes: notes
            .filter((n) => Number(n.lesson_id) === Number(lesson.id))
            .map((n) => ({
              id: n.id,
              lessonId: n.lesson_id,
              authorId: n.author_id,
              text: n.text,
              summary: n.summary,
              fileIds: n.file_ids,
              createdAt: n.created_at,
              updatedAt: n.updated_at,
            })),
        },
      ]
    })
  }
  const aggregate = async (bookingId: number, lock: boolean): Promise<BookingAggregate | undefined> => (await aggregates([bookingId], lock))[0]
  return { aggregates, aggregate }
}

export function bookingRepository(db: Kysely<Database>, clock: Clock): WithoutLocks<BookingRepository> {
  const { aggregates, aggregate } = aggregateReader(db, clock)
  return {
    async countUnpaidHolding(userId, now) {
      const row = await db
        .selectFrom('bookings as b')
        .innerJoin('lessons as l', 'l.id', 'b.lesson_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('b.user_id', '=', userId)
        .where('b.state', '=', BOOKING_STATES.AWAITING_PAYMENT)
        .where('l.state', '<>', LESSON_STATES.CANCELLED)
        .where('b.hold_expires_at', '>', now)
        .executeTakeFirstOrThrow()
      return Number(row.n)
    },
    async ownChildIds(parentId, childIds) {
      if (childIds.length === 0) return []
      const rows = await db
        .selectFrom('children')
        .select('id')
        .where('parent_id', '=', parentId)
        .where('deleted_at', 'is', null)
        .where('id', 'in', [...childIds])
        .execute()
      return rows.map((r) => r.id)
    },
    async insert(draft) {
      let lessonId: number
      try {
        const lesson = await db
          .insertInto('lessons')
          .values({
            tutor_id: draft.tutorId,
            student_id: draft.studentId,
            teach_id: draft.teachId,
            subject_id: draft.subjectId,
            subject_level_id: draft.subjectLevelId,
            exam_board_id: draft.examBoardId,
            lesson_type: LESSON_TYPE_IDS[draft.lessonType],
            state: LESSON_STATES.ACTIVE,
            start_at: draft.start,
            finish_at: draft.finish,
            address: draft.address === null ? null : JSON.stringify(draft.address),
            meeting_url: draft.meetingUrl,
            created_at: draft.createdAt,
            updated_at: draft.createdAt,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        lessonId = lesson.id
      } catch (error) {
        if (isExclusionViolation(error)) return undefined
        throw error
      }
      if (draft.childIds.length > 0) {
        await db.insertInto('lesson_children').values(draft.childIds.map((child_id) => ({ lesson_id: lessonId, child_id }))).execute()
      }
      const booking = await db
        .insertInto('bookings')
        .values({
          lesson_id: lessonId,
          user_id: draft.studentId,
          state: BOOKING_STATES.AWAITING_PAYMENT,
          hold_expires_at: draft.holdExpiresAt,
          lesson_price_pence: draft.lessonPricePence,
          service_fee_pence: draft.serviceFeePence,
          discount_pence: draft.discountPence,
          total_pence: draft.totalPence,
          coupon_uid: draft.couponUid,
          created_at: draft.createdAt,
          updated_at: draft.createdAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      return { bookingId: booking.id, lessonId }
    },
    findById: (id) => aggregate(id, false),
    async findByLessonId(lessonId) {
      const row = await db.selectFrom('bookings').select('id').where('lesson_id', '=', lessonId).executeTakeFirst()
      return row ? aggregate(row.id, false) : undefined
    },
    async list(filter, page) {
      let query = db.selectFrom('bookings as b').innerJoin('lessons as l', 'l.id', 'b.lesson_id')
      if (filter.bookerId !== undefined) query = query.where('b.user_id', '=', filter.bookerId)
      if (filter.partyId !== undefined) {
        const id = filter.partyId
        query = query.where((eb) => eb.or([eb('b.user_id', '=', id), eb('l.tutor_id', '=', id), eb('l.student_id', '=', id)]))
      }
      const [rows, count] = await Promise.all([
        query.select('b.id').orderBy('l.start_at', 'desc').orderBy('b.id', 'desc').limit(page.perPage).offset(OFFSET(page)).execute(),
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return { items: await aggregates(rows.map((r) => r.id), false), total: Number(count.n) }
    },
    async updateBooking(id, patch) {
      await db
        .updateTable('bookings')
        .set({
          ...(patch.state !== undefined ? { state: BOOKING_STATES[patch.state] } : {}),
          ...(patch.refundedPence !== undefined ? { refunded_pence: patch.refundedPence } : {}),
          ...(patch.holdExpiresAt !== undefined ? { hold_expires_at: patch.holdExpiresAt } : {}),
          ...(patch.discountPence !== undefined ? { discount_pence: patch.discountPence } : {}),
          ...(patch.totalPence !== undefined ? { total_pence: patch.totalPence } : {}),
          ...(patch.couponUid !== undefined ? { coupon_uid: patch.couponUid } : {}),
          ...(patch.note !== undefined ? { note: patch.note } : {}),
          updated_at: sql<Date>`now()`,
        })
        .where('id', '=', id)
        .execute()
    },
    async updateLesson(id, patch) {
      const current = await db.selectFrom('lessons').select(['tutor_id', 'student_id']).where('id', '=', id).executeTakeFirstOrThrow()
      const proposer = (side: LessonSide | null) => (side === null ? null : side === 'tutor' ? current.tutor_id : current.student_id)
      try {
        await db
          .updateTable('lessons')
          .set({
            ...(patch.state !== undefined ? { state: LESSON_STATES[patch.state] } : {}),
            ...(patch.start !== undefined ? { start_at: patch.start } : {}),
            ...(patch.finish !== undefined ? { finish_at: patch.finish } : {}),
            ...(patch.suggestedStart !== undefined ? { suggested_start_at: patch.suggestedStart } : {}),
            ...(patch.suggestedFinish !== undefined ? { suggested_finish_at: patch.suggestedFinish } : {}),
            ...(patch.proposedBy !== undefined ? { proposed_by: proposer(patch.proposedBy) } : {}),
            ...(patch.proposalExpiresAt !== undefined ? { proposal_expires_at: patch.proposalExpiresAt } : {}),
            ...(patch.experienceRating !== undefined ? { experience_rating: patch.experienceRating } : {}),
            ...(patch.cancelledAt !== undefined ? { cancelled_at: patch.cancelledAt } : {}),
            ...(patch.cancelledBy !== undefined ? { cancelled_by: patch.cancelledBy } : {}),
            updated_at: sql<Date>`now()`,
          })
          .where('id', '=', id)
          .execute()
      } catch (error) {
        if (isExclusionViolation(error)) return undefined
        throw error
      }
      return true
    },
    async addEvent(bookingId, kind, actorId, data = {}) {
      await db.insertInto('booking_events').values({ booking_id: bookingId, kind, actor_id: actorId, data: JSON.stringify(data) }).execute()
    },
    async lapsedHoldsOverlapping(tutorId, start, finish, now) {
      const rows = await db
        .selectFrom('bookings as b')
        .innerJoin('lessons as l', 'l.id', 'b.lesson_id')
        .select('b.id')
        .where('l.tutor_id', '=', tutorId)
        .where('l.state', '<>', LESSON_STATES.CANCELLED)
        .where('l.start_at', '<', finish)
        .where('l.finish_at', '>', start)
        .where('b.state', '=', BOOKING_STATES.AWAITING_PAYMENT)
        .where('b.hold_expires_at', '<=', now)
        .execute()
      return rows.map((r) => r.id)
    },
    async claimLapsedHolds(now, limit) {
      const rows = await db
        .selectFrom('bookings as b')
        .innerJoin('lessons as l', 'l.id', 'b.lesson_id')
        .select('b.id')
        .where('b.state', '=', BOOKING_STATES.AWAITING_PAYMENT)
        .where('b.hold_expires_at', '<=', now)
        .where('l.state', '<>', LESSON_STATES.CANCELLED)
        .orderBy('b.hold_expires_at')
        .limit(limit)
        .forUpdate('b')
        .skipLocked()
        .execute()
      return rows.map((r) => r.id)
    },
    async claimExpiredProposals(now, limit) {
      const rows = await db
        .selectFrom('lessons as l')
        .innerJoin('bookings as b', 'b.lesson_id', 'l.id')
        .select('b.id')
        .where('l.state', '=', LESSON_STATES.RESCHEDULE)
        .where('l.proposal_expires_at', '<=', now)
        .orderBy('l.proposal_expires_at')
        .limit(limit)
        .forUpdate('l')
        .skipLocked()
        .execute()
      return rows.map((r) => r.id)
    },
    async lessonsWith(tutorId, userId) {
      const rows = await db
        .selectFrom('lessons as l')
        .innerJoin('bookings as b', 'b.lesson_id', 'l.id')
        .select(['l.finish_at', 'b.state'])
        .where('l.tutor_id', '=', tutorId)
        .where((eb) => eb.or([eb('l.student_id', '=', userId), eb('b.user_id', '=', userId)]))
        .where('b.state', 'in', [BOOKING_STATES.PAYED, BOOKING_STATES.REQUIRES_CAPTURE])
        .where('l.state', '<>', LESSON_STATES.CANCELLED)
        .orderBy('l.finish_at')
        .execute()
      return rows.map((r) => ({ finish: r.finish_at, bookingState: r.state === BOOKING_STATES.PAYED ? ('PAYED' as const) : ('REQUIRES_CAPTURE' as const) }))
    },
  }
}

export function bookingLocks(trx: Transaction<Database>, clock: Clock): Locks<BookingRepository> {
  const { aggregate } = aggregateReader(trx, clock)
  return {
    lockTutor: (tutorId) => lockUserRow(trx, tutorId),
    lockTutorAndBooker: (tutorId, bookerId) => lockUserRows(trx, [tutorId, bookerId]),
    lockById: (id) => aggregate(id, true),
  }
}
