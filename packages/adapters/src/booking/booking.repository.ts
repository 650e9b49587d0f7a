import { sql, type Kysely, type Selectable, type Transaction } from 'kysely'
import {
  BOOKING_STATES,
  bookingStateOf,
  type BookingAggregate,
  type BookingEvent,
  type BookingRecord,
  type BookingRepository,
  type BookingSetting,
  type BookingTeach,
  type BookingTutor,
  type LessonRecord,
  type NewBooking,
  type Person,
  type SeriesPlace,
} from '@tutoring/domain/booking'
import { LESSON_STATES, lessonStateOf, type LessonSide } from '@tutoring/domain/lesson'
import { LESSON_TYPE_IDS, lessonTypeName, type RoleId, type WithoutLocks } from '@tutoring/domain/shared'
import type { Titled } from '@tutoring/domain/teaching'
import type { Database } from '../db/database'
import { lockUserRow, lockUserRows, type Locks } from '../db/row-locks'
import type { BookingEventsTable, BookingRow } from './bookings.table'
import type { LessonRow } from './lessons.table'
import { rowToPayment } from '../booking-payments'
import { compiledOnce } from '../db/prepared-statements'
import { bookableTeachQuery, rowToBookableTeach, type BookableTeachRow } from '../availability'

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

type PersonJson = { id: number; firstname: string; lastname: string; email: string; username: string; role_id: number }
type TutorJson = PersonJson & { bio: string | null; has_picture: boolean; overall_rating: number | null; review_count: number; minutes_taught: number }
type ChildJson = { lesson_id: number; id: number; firstname: string; lastname: string }
type SettingRow = { tutors: TutorJson[]; bookers: PersonJson[]; subjects: Titled[]; levels: Titled[]; children: ChildJson[] }

const PERSON_JSON = sql`'id', u.id, 'firstname', u.firstname, 'lastname', u.lastname, 'email', u.email, 'username', u.username, 'role_id', u.role_id`

/**
 * A tutor (`u`) with their public standing: picture, bio, the stored rating and hours taught.
 * One text for the detail's read and booking's first one, so both answer alike.
 */
const TUTOR_JSON = sql`json_build_object(${PERSON_JSON},
        'bio', p.bio, 'has_picture', pic.id is not null, 'overall_rating', r.overall_rating,
        'review_count', coalesce(r.review_count, 0), 'minutes_taught', coalesce(h.minutes_taught, 0))`
const TUTOR_FROM = sql`from users u
      left join profiles p on p.user_id = u.id
      left join files pic on pic.id = p.profile_picture_file_id and pic.deleted_at is null
      left join tutor_ratings r on r.tutor_id = u.id
      left join tutor_hours h on h.tutor_id = u.id`

/**
 * What the details of these bookings name besides their own rows, in one statement: each
 * tutor with their public standing (picture, bio, the stored rating and hours taught), each
 * booker, the subjects and levels, and each lesson's children.
 */
async function readSetting(
  db: Kysely<Database>,
  keys: { tutorIds: readonly number[]; bookerIds: readonly number[]; subjectIds: readonly number[]; levelIds: readonly number[]; lessonIds: readonly number[] },
): Promise<SettingRow> {
  const ids = (list: readonly number[]) => sql`${[...new Set(list)]}::bigint[]`
  const { rows } = await sql<SettingRow>`select
    coalesce((
      select json_agg(${TUTOR_JSON})
      ${TUTOR_FROM}
      where u.id = any(${ids(keys.tutorIds)})
    ), '[]') as tutors,
    coalesce((select json_agg(json_build_object(${PERSON_JSON})) from users u where u.id = any(${ids(keys.bookerIds)})), '[]') as bookers,
    coalesce((select json_agg(json_build_object('id', s.id, 'title', s.title)) from subjects s where s.id = any(${ids(keys.subjectIds)})), '[]') as subjects,
    coalesce((select json_agg(json_build_object('id', l.id, 'title', l.title)) from subject_levels l where l.id = any(${ids(keys.levelIds)})), '[]') as levels,
    coalesce((
      select json_agg(json_build_object('lesson_id', lc.lesson_id, 'id', c.id, 'firstname', c.firstname, 'lastname', c.lastname) order by c.id)
      from lesson_children lc join children c on c.id = lc.child_id
      where lc.lesson_id = any(${ids(keys.lessonIds)})
    ), '[]') as children`.execute(db)
  return rows[0]!
}

const jsonToPerson = (row: PersonJson): Person => ({
  id: row.id,
  firstname: row.firstname,
  lastname: row.lastname,
  email: row.email,
  username: row.username,
  roleId: row.role_id as RoleId,
})

const jsonToTutor = (row: TutorJson): BookingTutor => ({
  ...jsonToPerson(row),
  hasPicture: row.has_picture,
  bio: row.bio,
  overallRating: row.overall_rating,
  reviewCount: row.review_count,
  minutesTaught: row.minutes_taught,
})

/** The setting of each lesson (with its booker) out of what `readSetting` read. */
function settingOf(row: SettingRow) {
  const byId = <T extends { id: number }>(items: readonly T[]) => new Map(items.map((item) => [item.id, item]))
  const tutors = byId(row.tutors)
  const bookers = byId(row.bookers)
  const subjects = byId(row.subjects)
  const levels = byId(row.levels)
  return (lesson: Pick<LessonRecord, 'id' | 'tutorId' | 'subjectId' | 'subjectLevelId'>, bookerId: number): BookingSetting => ({
    tutor: jsonToTutor(tutors.get(lesson.tutorId)!),
    booker: jsonToPerson(bookers.get(bookerId)!),
    children: row.children.filter((c) => c.lesson_id === lesson.id).map(({ id, firstname, lastname }) => ({ id, firstname, lastname })),
    subject: subjects.get(lesson.subjectId)!,
    subjectLevel: levels.get(lesson.subjectLevelId)!,
  })
}

type BookingTeachRow = BookableTeachRow & { setting_tutor: TutorJson; setting_booker: PersonJson; setting_subject: Titled; setting_level: Titled | null }

/**
 * Booking's first read: the bookable teach (availability's statement) with what the answer
 * names of it and of the booker, as the detail's read names them (`readSetting`).
 */
const bookingTeachStatement = compiledOnce<{ teachId: number; bookerId: number; subjectLevelId: number }, BookingTeachRow>((db, v) =>
  bookableTeachQuery(db, v('teachId'))
    .select([
      sql<TutorJson>`(select ${TUTOR_JSON} ${TUTOR_FROM} where u.id = t.tutor_id)`.as('setting_tutor'),
      sql<PersonJson>`(select json_build_object(${PERSON_JSON}) from users u where u.id = ${v('bookerId')})`.as('setting_booker'),
      sql<Titled>`(select json_build_object('id', s.id, 'title', s.title) from subjects s where s.id = t.subject_id)`.as('setting_subject'),
      sql<Titled | null>`(select json_build_object('id', l.id, 'title', l.title) from subject_levels l where l.id = ${v('subjectLevelId')})`.as('setting_level'),
    ])
    .compile(),
)

/** Which of the children named are the parent's own, compiled once, as it runs in every booking that names children. */
const ownChildrenStatement = compiledOnce<{ parentId: number; childIds: readonly number[] }, BookingSetting['children'][number]>((db, v) =>
  db
    .selectFrom('children')
    .select(['id', 'firstname', 'lastname'])
    .where('parent_id', '=', v('parentId'))
    .where('deleted_at', 'is', null)
    .where(sql<boolean>`id = any(${v('childIds')}::bigint[])`)
    .compile(),
)

const rowToBookingTeach = (row: BookingTeachRow): BookingTeach => ({
  ...rowToBookableTeach(row),
  setting: { tutor: jsonToTutor(row.setting_tutor), booker: jsonToPerson(row.setting_booker), subject: row.setting_subject, subjectLevel: row.setting_level },
})

/** The place in its weekly series of each of these bookings (null for a lone one), in one query. */
async function seriesPlaces(db: Kysely<Database>, bookings: readonly BookingRecord[]): Promise<(bookingId: number) => SeriesPlace | null> {
  const rows = await db
    .selectFrom('bookings as b')
    .innerJoin('bookings as m', 'm.series_id', 'b.series_id')
    .innerJoin('booking_series as s', 's.id', 'b.series_id')
    .select(['b.id as booking_id', 'b.series_id', 'b.series_position', 's.weeks', 'm.id as member_id'])
    .where('b.id', 'in', bookings.map((b) => b.id))
    .orderBy('m.series_position')
    .execute()
  return (bookingId) => {
    const own = rows.filter((r) => Number(r.booking_id) === bookingId)
    const [first] = own
    if (!first || first.series_id === null || first.series_position === null) return null
    return { id: Number(first.series_id), position: first.series_position, weeks: first.weeks, bookingIds: own.map((r) => Number(r.member_id)) }
  }
}

/** Reads booking details on one executor; `lock` holds the booking and lesson rows (in a transaction only). */
function aggregateReader(db: Kysely<Database>) {
  /**
   * The detail of each booking, in the order of `bookingIds`, in a fixed number of queries
   * however many there are (a list page reads no more than one booking does).
   */
  async function aggregates(bookingIds: readonly number[], lock: boolean): Promise<BookingAggregate[]> {
    if (bookingIds.length === 0) return []
    let bookingQuery = db.selectFrom('bookings').selectAll().where('id', 'in', [...bookingIds])
    if (lock) bookingQuery = bookingQuery.forUpdate()
    const bookings = (await bookingQuery.execute()).map(rowToBooking)
    if (bookings.length === 0) return []
    let lessonQuery = db.selectFrom('lessons').selectAll().where('id', 'in', bookings.map((b) => b.lessonId))
    if (lock) lessonQuery = lessonQuery.forUpdate()
    const lessons = (await lessonQuery.execute()).map(rowToLesson)
    const lessonIds = lessons.map((l) => l.id)
    const [setting, payments, events, notes, series] = await Promise.all([
      readSetting(db, {
        tutorIds: lessons.map((l) => l.tutorId),
        bookerIds: bookings.map((b) => b.userId),
        subjectIds: lessons.map((l) => l.subjectId),
        levelIds: lessons.map((l) => l.subjectLevelId),
        lessonIds,
      }).then(settingOf),
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
      seriesPlaces(db, bookings),
    ])
    const lessonById = new Map(lessons.map((l) => [l.id, l]))
    const bookingById = new Map(bookings.map((b) => [b.id, b]))
    const paymentOf = new Map(payments.map((p) => [Number(p.booking_id), p]))
    return bookingIds.flatMap((id) => {
      const booking = bookingById.get(Number(id))
      if (!booking) return []
      const lesson = lessonById.get(booking.lessonId)!
      const payment = paymentOf.get(booking.id)
      return [
        {
          ...setting(lesson, booking.userId),
          booking,
          series: series(booking.id),
          lesson,
          payment: payment ? rowToPayment(payment) : null,
          events: events.filter((e) => Number(e.booking_id) === booking.id).map(rowToEvent),
          notes: notes
            .filter((n) => Number(n.lesson_id) === lesson.id)
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

type HoldsAroundValues = { bookerId: number; tutorId: number; now: Date; starts: Date[]; finishes: Date[]; from: Date; to: Date }

/**
 * `holdsAround` in one statement. The booker's count keys a series once and a lone booking on
 * its (negated) id. The tutor's lapsed holds are found on the exclusion constraint's index
 * (tutor and the range from the first start to the last finish), then kept only where they
 * overlap one of the times.
 */
const holdsAroundStatement = compiledOnce<HoldsAroundValues, { unpaid: number; lapsed: number[] }>(
  (db, v) => sql<{ unpaid: number; lapsed: number[] }>`select
    (select count(distinct coalesce(b.series_id, -b.id))
     from bookings b join lessons l on l.id = b.lesson_id
     where b.user_id = ${v('bookerId')} and b.state = ${sql.lit(BOOKING_STATES.AWAITING_PAYMENT)}
       and l.state <> ${sql.lit(LESSON_STATES.CANCELLED)} and b.hold_expires_at > ${v('now')}) as unpaid,
    coalesce((
      select json_agg(b.id order by b.id)
      from lessons l join bookings b on b.lesson_id = l.id
      where l.tutor_id = ${v('tutorId')} and l.state <> ${sql.lit(LESSON_STATES.CANCELLED)}
        and tstzrange(l.start_at, l.finish_at, '[)') && tstzrange(${v('from')}, ${v('to')}, '[)')
        and exists (select 1 from unnest(${v('starts')}::timestamptz[], ${v('finishes')}::timestamptz[]) as t(s, f) where l.start_at < t.f and l.finish_at > t.s)
        and b.state = ${sql.lit(BOOKING_STATES.AWAITING_PAYMENT)} and b.hold_expires_at <= ${v('now')}
    ), '[]') as lapsed`.compile(db),
)

type InsertValues = {
  tutorId: number
  studentId: number
  teachId: number
  subjectId: number
  subjectLevelId: number
  examBoardId: number | null
  lessonType: number
  lessonState: number
  start: Date
  finish: Date
  address: string | null
  meetingUrl: string | null
  createdAt: Date
  childIds: number[]
  bookingState: number
  holdExpiresAt: Date
  lessonPricePence: number
  serviceFeePence: number
  discountPence: number
  totalPence: number
  couponUid: string | null
  seriesId: number | null
  seriesPosition: number | null
  eventKind: string
  eventActorId: number
  eventData: string
}
type InsertedIds = { lesson_id: number; booking_id: number; event_id: number; event_at: Date }

const insertValues = (draft: NewBooking): InsertValues => ({
  tutorId: draft.tutorId,
  studentId: draft.studentId,
  teachId: draft.teachId,
  subjectId: draft.subjectId,
  subjectLevelId: draft.subjectLevelId,
  examBoardId: draft.examBoardId,
  lessonType: LESSON_TYPE_IDS[draft.lessonType],
  lessonState: LESSON_STATES.ACTIVE,
  start: draft.start,
  finish: draft.finish,
  address: draft.address === null ? null : JSON.stringify(draft.address),
  meetingUrl: draft.meetingUrl,
  createdAt: draft.createdAt,
  childIds: draft.childIds,
  bookingState: BOOKING_STATES.AWAITING_PAYMENT,
  holdExpiresAt: draft.holdExpiresAt,
  lessonPricePence: draft.lessonPricePence,
  serviceFeePence: draft.serviceFeePence,
  discountPence: draft.discountPence,
  totalPence: draft.totalPence,
  couponUid: draft.couponUid,
  seriesId: draft.series?.id ?? null,
  seriesPosition: draft.series?.position ?? null,
  eventKind: draft.event.kind,
  eventActorId: draft.event.actorId,
  eventData: JSON.stringify(draft.event.data),
})

/**
 * The lesson (under the exclusion constraint), its children, its booking and the booking's
 * first event in one statement, answering only what the database chose: the ids and the
 * event's time. Everything else the caller already holds (`insertedRecords`).
 */
const insertBookingStatement = compiledOnce<InsertValues, InsertedIds>(
  (db, v) => sql<InsertedIds>`
    with l as (
      insert into lessons (tutor_id, student_id, teach_id, subject_id, subject_level_id, exam_board_id, lesson_type, state, start_at, finish_at, address, meeting_url, created_at, updated_at)
      values (${v('tutorId')}, ${v('studentId')}, ${v('teachId')}, ${v('subjectId')}, ${v('subjectLevelId')}, ${v('examBoardId')}, ${v('lessonType')}, ${v('lessonState')},
              ${v('start')}, ${v('finish')}, ${v('address')}::jsonb, ${v('meetingUrl')}, ${v('createdAt')}, ${v('createdAt')})
      returning id
    ), c as (
      insert into lesson_children (lesson_id, child_id) select l.id, child from l, unnest(${v('childIds')}::bigint[]) as child
    ), b as (
      insert into bookings (lesson_id, user_id, state, hold_expires_at, lesson_price_pence, service_fee_pence, discount_pence, total_pence, coupon_uid, series_id, series_position, created_at, updated_at)
      values ((select id from l), ${v('studentId')}, ${v('bookingState')}, ${v('holdExpiresAt')}, ${v('lessonPricePence')}, ${v('serviceFeePence')}, ${v('discountPence')}, ${v('totalPence')},
              ${v('couponUid')}, ${v('seriesId')}, ${v('seriesPosition')}, ${v('createdAt')}, ${v('createdAt')})
      returning id
    ), e as (
      insert into booking_events (booking_id, kind, actor_id, data) values ((select id from b), ${v('eventKind')}, ${v('eventActorId')}, ${v('eventData')}::jsonb)
      returning id, created_at
    )
    select l.id as lesson_id, b.id as booking_id, e.id as event_id, e.created_at as event_at from l, b, e`.compile(db),
)

/** The records as stored: the draft with the ids the database gave, and the defaults of a new lesson and booking. */
const insertedRecords = (draft: NewBooking, row: InsertedIds): { booking: BookingRecord; lesson: LessonRecord; event: BookingEvent } => ({
  lesson: {
    id: row.lesson_id,
    tutorId: draft.tutorId,
    studentId: draft.studentId,
    teachId: draft.teachId,
    subjectId: draft.subjectId,
    subjectLevelId: draft.subjectLevelId,
    examBoardId: draft.examBoardId,
    lessonType: draft.lessonType,
    state: 'ACTIVE',
    start: draft.start,
    finish: draft.finish,
    suggestedStart: null,
    suggestedFinish: null,
    proposedBy: null,
    proposalExpiresAt: null,
    address: draft.address,
    meetingUrl: draft.meetingUrl,
    experienceRating: null,
    cancelledAt: null,
  },
  booking: {
    id: row.booking_id,
    lessonId: row.lesson_id,
    userId: draft.studentId,
    state: 'AWAITING_PAYMENT',
    holdExpiresAt: draft.holdExpiresAt,
    lessonPricePence: draft.lessonPricePence,
    serviceFeePence: draft.serviceFeePence,
    discountPence: draft.discountPence,
    totalPence: draft.totalPence,
    refundedPence: 0,
    couponUid: draft.couponUid,
    note: null,
    createdAt: draft.createdAt,
  },
  event: { id: row.event_id, kind: draft.event.kind, actorId: draft.event.actorId, data: draft.event.data, at: row.event_at },
})

const rowToEvent = (e: Selectable<BookingEventsTable>): BookingEvent => ({ id: e.id, kind: e.kind, actorId: e.actor_id, data: e.data, at: e.created_at })

export function bookingRepository(db: Kysely<Database>): WithoutLocks<BookingRepository> {
  const { aggregates, aggregate } = aggregateReader(db)
  return {
    async holdsAround(bookerId, tutorId, times, now) {
      const { rows } = await db.executeQuery(
        holdsAroundStatement(db, {
          bookerId,
          tutorId,
          now,
          starts: times.map((t) => t.start),
          finishes: times.map((t) => t.finish),
          from: new Date(Math.min(...times.map((t) => t.start.getTime()))),
          to: new Date(Math.max(...times.map((t) => t.finish.getTime()))),
        }),
      )
      const row = rows[0]!
      return { unpaidHolding: Number(row.unpaid), lapsedHoldIds: row.lapsed }
    },
    async insertSeries(userId, weeks, createdAt) {
      const row = await db.insertInto('booking_series').values({ user_id: userId, weeks, created_at: createdAt }).returning('id').executeTakeFirstOrThrow()
      return Number(row.id)
    },
    async findSeries(id) {
      const series = await db.selectFrom('booking_series').selectAll().where('id', '=', id).executeTakeFirst()
      if (!series) return undefined
      const members = await db.selectFrom('bookings').select('id').where('series_id', '=', id).orderBy('series_position').execute()
      return { id: Number(series.id), userId: Number(series.user_id), weeks: series.weeks, bookingIds: members.map((m) => Number(m.id)) }
    },
    async findBookingTeach(teachId, bookerId, subjectLevelId) {
      const { rows } = await db.executeQuery(bookingTeachStatement(db, { teachId, bookerId, subjectLevelId }))
      return rows[0] && rowToBookingTeach(rows[0])
    },
    async ownChildren(parentId, childIds) {
      if (childIds.length === 0) return []
      return (await db.executeQuery(ownChildrenStatement(db, { parentId, childIds }))).rows
    },
    async insert(draft) {
      let row: InsertedIds
      try {
        row = (await db.executeQuery(insertBookingStatement(db, insertValues(draft)))).rows[0]!
      } catch (error) {
        if (isExclusionViolation(error)) return undefined
        throw error
      }
      return insertedRecords(draft, row)
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
      return rowToEvent(
        await db.insertInto('booking_events').values({ booking_id: bookingId, kind, actor_id: actorId, data: JSON.stringify(data) }).returningAll().executeTakeFirstOrThrow(),
      )
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
        // The booking with its lesson, skipped while a request holds it: requests take the booking
        // first, so a run holding the lesson while waiting for the booking deadlocked with them.
        .forUpdate(['l', 'b'])
        .skipLocked()
        .execute()
      return rows.map((r) => r.id)
    },
    async claimHoursTaughtChanges(now, limit) {
      const rows = await db
        .selectFrom('lessons')
        .select(['id', 'tutor_id', 'state', 'start_at', 'finish_at', 'taught_at'])
        .where((eb) =>
          eb.or([
            eb.and([eb('taught_at', 'is', null), eb('state', '<>', LESSON_STATES.CANCELLED), eb('finish_at', '<=', now)]),
            eb.and([eb('taught_at', 'is not', null), eb('state', '=', LESSON_STATES.CANCELLED)]),
          ]),
        )
        .orderBy('id')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute()
      return rows.map((r) => {
        const state = lessonStateOf(r.state)
        if (!state) throw new Error(`lesson ${r.id} has an unknown state`)
        return { id: r.id, tutorId: r.tutor_id, state, start: r.start_at, finish: r.finish_at, counted: r.taught_at !== null }
      })
    },
    async markTaught(lessonIds, at) {
      if (lessonIds.length === 0) return
      await db.updateTable('lessons').set({ taught_at: at }).where('id', 'in', [...lessonIds]).execute()
    },
    async addMinutesTaught(tutorId, minutes) {
      await db
        .insertInto('tutor_hours')
        .values({ tutor_id: tutorId, minutes_taught: minutes })
        .onConflict((oc) => oc.column('tutor_id').doUpdateSet((eb) => ({ minutes_taught: sql`${eb.ref('tutor_hours.minutes_taught')} + ${minutes}`, updated_at: sql`now()` })))
        .execute()
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

export function bookingLocks(trx: Transaction<Database>): Locks<BookingRepository> {
  const { aggregate } = aggregateReader(trx)
  return {
    lockTutor: (tutorId) => lockUserRow(trx, tutorId),
    lockTutorAndBooker: (tutorId, bookerId) => lockUserRows(trx, [tutorId, bookerId]),
    lockById: (id) => aggregate(id, true),
  }
}
