import { z } from '@hono/zod-openapi'
import { withinSupportedYears } from '../platform/dates'
import { signedLinkQuery } from '../platform/auth'
import {
  BOOKING_STATE_NAMES,
  BOOKING_STATES,
  type BookingAggregate,
  type CreateBookingInput,
  type LessonNote,
  type BookingPayment,
} from '@tutoring/domain/booking'
import { LESSON_STATE_NAMES, LESSON_STATES } from '@tutoring/domain/lesson'
import { CURRENCY, LESSON_TYPE_IDS, MAX_SERIES_WEEKS, formatPence, lessonTypeName } from '@tutoring/domain/shared'
import { hoursFromMinutes } from '../platform/fields'
import type { MediaUrls } from '../platform/media-urls'
import { paginationQuery } from '../platform/pagination'
import { lessonCalendar } from './lesson-calendar'
import { bearer } from '../platform/routes'
import { LessonTypeId, LessonTypeNameSchema } from '../platform/lesson-types'
import { PaymentStatusEnum } from '../platform/payment-status'

/** web.api: a bearer token, or a link carrying a signature (with `uid`) or a `secret`; described in words. */
export const webApiAuth = [{}, ...bearer]

const INT_MAX = 2_147_483_647
const id = z.number().int().positive().max(INT_MAX)
const instant = z.iso.datetime({ offset: true }).refine(...withinSupportedYears).openapi({ example: '2026-12-01T10:00:00Z' })

export const idParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).openapi({ param: { name: 'id', in: 'path' } }) })
export const listQuery = z.object(paginationQuery)
/** The `secret` of an emailed management link (CONTRACT §14): this booking only, until the lesson's finish. */
export const bookingSecretQuery = signedLinkQuery.extend({
  secret: z.string().optional().openapi({ description: "From an emailed management link: opens this one booking (view, cancel) as its recipient until the lesson's finish; for any other booking, or expired, it is 401 as no credential." }),
})

export const AddressBody = z.strictObject({
  line1: z.string().max(255).trim().min(1),
  line2: z.string().max(255).trim().nullish(),
  city: z.string().max(255).trim().min(1),
  postcode: z.string().max(16).trim().min(2),
  country: z.string().max(2).trim().length(2).default('GB'),
  lat: z.number().min(-90).max(90).nullish(),
  lng: z.number().min(-180).max(180).nullish(),
})

export const BookingBody = z
  .strictObject({
    teach_id: id,
    subject_level_id: id,
    exam_board_id: id.nullish(),
    start: instant,
    finish: instant,
    lesson_type: LessonTypeId,
    child_ids: z.array(id).max(10).optional().openapi({ description: "A parent's own children the lesson is for (required for a parent, refused for a student)." }),
    address: AddressBody.nullish().openapi({ description: "Required for students_home (2); ignored for online." }),
    coupon: z.string().max(64).trim().min(1).nullish(),
    repeat_weeks: z
      .number()
      .int()
      .min(1)
      .max(MAX_SERIES_WEEKS)
      .optional()
      .openapi({
        description:
          "Weekly series (CONTRACT §16): book the same wall-clock time in the tutor's time zone for this many weeks, all or none (any week not free: 409 `slot_unavailable` with `conflicts`, the starts of those weeks, and nothing booked). Only the first week must fall in the 14-day window. A coupon applies to the first week only.",
      }),
  })
  .openapi('BookingRequest')

/** The create-booking use case's input, from either family's body. */
export const toCreateBookingInput = (body: z.output<typeof BookingBody>): CreateBookingInput => ({
  teachId: body.teach_id,
  subjectLevelId: body.subject_level_id,
  examBoardId: body.exam_board_id ?? null,
  start: new Date(body.start),
  finish: new Date(body.finish),
  lessonType: lessonTypeName(body.lesson_type) ?? 'online',
  childIds: body.child_ids ?? [],
  address: body.address ? { ...body.address, line2: body.address.line2 ?? null, lat: body.address.lat ?? null, lng: body.address.lng ?? null } : null,
  coupon: body.coupon ?? null,
  repeatWeeks: body.repeat_weeks ?? 1,
})

export const BookingUpdateBody = z
  .strictObject({ note: z.string().max(1000).trim().nullable().openapi({ description: "The booker's note to the tutor; null clears it." }) })
  .openapi('BookingUpdateRequest')

export const RescheduleBody = z.strictObject({ suggested_start: instant, suggested_finish: instant }).openapi('RescheduleRequest')
export const RatingBody = z.strictObject({ experience_rating: z.number() }).openapi('LessonRatingRequest')
const Person = z.object({ id: z.number().int(), firstname: z.string(), lastname: z.string(), username: z.string() })
const Money = z.string().openapi({ example: '25.00' })

/** A state table as the docs list it: `ACTIVE 1, RESCHEDULE 2, ...`. */
const numbered = (states: Record<string, number>): string => Object.entries(states).map(([name, value]) => `${name} ${value}`).join(', ')

/** SPEC's state tables, each named once: the number (`state`) and the name (`state_name`). */
const LessonStateSchema = z.number().int().openapi('LessonState', { type: 'integer', enum: Object.values(LESSON_STATES), description: numbered(LESSON_STATES) })
const LessonStateNameSchema = z.enum(LESSON_STATE_NAMES).openapi('LessonStateName')
export const BookingStateSchema = z.number().int().openapi('BookingState', { type: 'integer', enum: Object.values(BOOKING_STATES), description: numbered(BOOKING_STATES) })
const BookingStateNameSchema = z.enum(BOOKING_STATE_NAMES).openapi('BookingStateName')

const LessonAddressSchema = z
  .object({
    line1: z.string(),
    line2: z.string().nullable(),
    city: z.string(),
    postcode: z.string(),
    country: z.string().openapi({ example: 'GB' }),
    lat: z.number().nullable(),
    lng: z.number().nullable(),
  })
  .openapi('LessonAddress', { description: "An in-person lesson's place (a lesson's `address`, null online), with the point it was located at." })

export const LessonSchema = z
  .object({
    id: z.number().int(),
    state: LessonStateSchema,
    state_name: LessonStateNameSchema,
    start: z.string(),
    finish: z.string(),
    suggested_start: z.string().nullable(),
    suggested_finish: z.string().nullable(),
    proposal_expires_at: z.string().nullable(),
    proposed_by: z.enum(['tutor', 'student']).nullable(),
    lesson_type: LessonTypeId,
    lesson_type_name: LessonTypeNameSchema,
    subject: z.object({ id: z.number().int(), title: z.string() }),
    subject_level: z.object({ id: z.number().int(), title: z.string() }),
    exam_board_id: z.number().int().nullable(),
    // A union, not .nullable(): a nullable wrapper met first would become the component itself.
    address: z.union([LessonAddressSchema, z.null()]),
    children: z.array(z.object({ id: z.number().int(), firstname: z.string(), lastname: z.string() })),
    experience_rating: z.number().int().nullable(),
    tutor_id: z.number().int(),
    student_id: z.number().int(),
    booking_id: z.number().int(),
  })
  .openapi('Lesson')

const NoteSchema = z
  .object({ id: z.number().int(), lesson_id: z.number().int(), author_id: z.number().int(), text: z.string(), summary: z.string(), file_ids: z.array(z.string()), created_at: z.string(), updated_at: z.string() })
  .openapi('Note')

export const BookingSchema = z
  .object({
    id: z.number().int(),
    state: BookingStateSchema,
    state_name: BookingStateNameSchema,
    hold_expires_at: z.string().nullable(),
    created_at: z.string(),
    lesson: LessonSchema,
    tutor: z.object({
      id: z.number().int(),
      username: z.string(),
      firstname: z.string(),
      lastname: z.string(),
      profile_picture_url: z.string().nullable(),
      bio: z.string().nullable(),
      overall_rating: z.number().nullable(),
      review_count: z.number().int(),
      hours_taught: z.number(),
    }),
    student: Person.extend({ email: z.string(), role_id: z.number().int() }),
    meeting: z.object({ provider: z.string(), join_url: z.string() }).nullable(),
    notes: z.object({ booking: z.string().nullable(), lesson: z.array(NoteSchema) }),
    receipt: z.object({
      sign: z.string(),
      currency_code: z.string(),
      lesson_price: Money,
      service_fee: Money,
      initial_total: Money,
      discount_amount: Money,
      total: Money,
      refunded: Money,
      coupon: z.string().nullable(),
      payment: z
        .object({
          id: z.number().int(),
          status: PaymentStatusEnum,
          amount: Money,
          captured: Money,
          authorize_at: z.string().nullable(),
          dispute: z
            .object({
              status: z.string().openapi({ description: "The processor's dispute status: `needs_response`, `under_review`, `won`, `lost`, ..." }),
              reason: z.string().nullable(),
              amount: Money,
              opened_at: z.string(),
            })
            .nullable()
            .openapi({ description: 'A cardholder dispute of the charge (`charge.dispute.*` webhooks), or null.' }),
        })
        .nullable(),
    }),
    timeline: z.array(z.object({ kind: z.string(), at: z.string(), actor_id: z.number().int().nullable(), data: z.record(z.string(), z.unknown()) })),
    series: z
      .object({
        id: z.number().int(),
        position: z.number().int().openapi({ description: 'Which week of the series this booking is, from 1.' }),
        weeks: z.number().int(),
        booking_ids: z.array(z.number().int()).openapi({ description: "Every week's booking, first week first." }),
      })
      .nullable()
      .openapi({ description: 'The weekly series this booking is a week of (`repeat_weeks` > 1), or null.' }),
    calendar_events: z
      .array(
        z.object({
          uid: z.string(),
          title: z.string(),
          start: z.string(),
          finish: z.string(),
          sequence: z.number().int(),
          status: z.enum(['CONFIRMED', 'CANCELLED']),
          ics: z.string().openapi({ description: 'The event as an iCalendar (RFC 5545) file.' }),
        }),
      )
      .openapi({
        description:
          "The lesson as one calendar event. Its uid never changes; sequence counts the changes (each approved reschedule, then the cancellation) and the file's DTSTAMP is the time of the latest; a cancelled lesson's event has status CANCELLED, so a calendar that imported it can drop it.",
      }),
  })
  .openapi('Booking')

const iso = (d: Date | null) => (d === null ? null : d.toISOString())
export const presentNote = (n: LessonNote): z.infer<typeof NoteSchema> => ({
  id: n.id,
  lesson_id: n.lessonId,
  author_id: n.authorId,
  text: n.text,
  summary: n.summary,
  file_ids: n.fileIds,
  created_at: n.createdAt.toISOString(),
  updated_at: n.updatedAt.toISOString(),
})

export const presentLesson = (a: BookingAggregate): z.infer<typeof LessonSchema> => ({
  id: a.lesson.id,
  state: LESSON_STATES[a.lesson.state],
  state_name: a.lesson.state,
  start: a.lesson.start.toISOString(),
  finish: a.lesson.finish.toISOString(),
  suggested_start: iso(a.lesson.suggestedStart),
  suggested_finish: iso(a.lesson.suggestedFinish),
  proposal_expires_at: iso(a.lesson.proposalExpiresAt),
  proposed_by: a.lesson.proposedBy,
  lesson_type: LESSON_TYPE_IDS[a.lesson.lessonType],
  lesson_type_name: a.lesson.lessonType,
  subject: a.subject,
  subject_level: a.subjectLevel,
  exam_board_id: a.lesson.examBoardId,
  address: a.lesson.address,
  children: a.children,
  experience_rating: a.lesson.experienceRating,
  tutor_id: a.lesson.tutorId,
  student_id: a.lesson.studentId,
  booking_id: a.booking.id,
})

const presentPaymentSummary = (p: BookingPayment | null) =>
  p && {
    id: p.id,
    status: p.status,
    amount: formatPence(p.amountPence),
    captured: formatPence(p.capturedPence),
    authorize_at: iso(p.authorizeAt),
    dispute: p.dispute && { status: p.dispute.status, reason: p.dispute.reason, amount: formatPence(p.dispute.amountPence), opened_at: p.dispute.openedAt.toISOString() },
  }

/** CONTRACT §13's booking detail, with §17's tutor. */
export const presentBooking = (a: BookingAggregate, urls: MediaUrls): z.infer<typeof BookingSchema> => ({
  id: a.booking.id,
  state: BOOKING_STATES[a.booking.state],
  state_name: a.booking.state,
  hold_expires_at: iso(a.booking.holdExpiresAt),
  created_at: a.booking.createdAt.toISOString(),
  lesson: presentLesson(a),
  tutor: {
    id: a.tutor.id,
    username: a.tutor.username,
    firstname: a.tutor.firstname,
    lastname: a.tutor.lastname,
    profile_picture_url: a.tutor.hasPicture ? urls.profileImage(a.tutor.id) : null,
    bio: a.tutor.bio,
    overall_rating: a.tutor.overallRating,
    review_count: a.tutor.reviewCount,
    hours_taught: hoursFromMinutes(a.tutor.minutesTaught),
  },
  student: { id: a.booker.id, firstname: a.booker.firstname, lastname: a.booker.lastname, username: a.booker.username, email: a.booker.email, role_id: a.booker.roleId },
  meeting: a.lesson.lessonType === 'online' && a.lesson.meetingUrl && a.lesson.state !== 'CANCELLED' ? { provider: 'jitsi', join_url: a.lesson.meetingUrl } : null,
  notes: { booking: a.booking.note, lesson: a.notes.map(presentNote) },
  receipt: {
    sign: CURRENCY.sign,
    currency_code: CURRENCY.code,
    lesson_price: formatPence(a.booking.lessonPricePence),
    service_fee: formatPence(a.booking.serviceFeePence),
    initial_total: formatPence(a.booking.lessonPricePence + a.booking.serviceFeePence),
    discount_amount: formatPence(a.booking.discountPence),
    total: formatPence(a.booking.totalPence),
    refunded: formatPence(a.booking.refundedPence),
    coupon: a.booking.couponUid,
    payment: presentPaymentSummary(a.payment),
  },
  timeline: a.events.map((e) => ({ kind: e.kind, at: e.at.toISOString(), actor_id: e.actorId, data: e.data })),
  series: a.series && { id: a.series.id, position: a.series.position, weeks: a.series.weeks, booking_ids: a.series.bookingIds },
  calendar_events: lessonCalendar(a),
})
