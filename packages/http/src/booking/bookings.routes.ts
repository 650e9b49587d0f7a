import {
  cancelBooking,
  createBooking,
  getBooking,
  listBookings,
  proposeLessonReschedule,
  approveLessonReschedule,
  updateBooking,
} from '@tutoring/domain/booking'
import { authApi, currentUser, signedLinkQuery, webApi } from '../platform/auth'
import { IDEMPOTENCY_DESCRIPTION, idempotencyHeaders, idempotent } from '../platform/idempotency'
import { jsonBody } from '../platform/json-body'
import { mediaUrls } from '../platform/media-urls'
import { listOf, meta, one } from '../platform/pagination'
import { unwrap } from '../platform/respond'
import { bearer, commonProblems, jsonContent, mount, problemContent, type App } from '../platform/routes'
import type { Services } from '@tutoring/adapters'
import { webApiAuth, bookingSecretQuery, BookingBody, toCreateBookingInput, BookingSchema, BookingUpdateBody, RescheduleBody, idParam, listQuery, presentBooking } from './booking.schemas'

const tags = ['Bookings']
const VISIBILITY = 'Internal staff see every booking; the booker (student or parent) and the tutor see theirs; to anyone else it does not exist (404).'

export function bookingRoutes(app: App, services: Services): void {
  const deps = services.bookings
  const urls = mediaUrls(services.infra.baseUrl)

  mount(
    app,
    ['/api/bookings', '/api/v1/bookings'],
    {
      method: 'post',
      tags,
      summary: 'Book a lesson',
      description: [
        'Students and parents only (403 otherwise). The teach gives the tutor and subject. Checks, in order: the teach 404 `not_found` unless on offer (live, enabled, of a live tutor whose identity, DBS and qualification checks all passed and whose subscription is trialing or active; the same answer for every other teach, as availability\'s); validation 422 (the level and exam board must be the teach\'s; a whole number of minutes from 30 to 120, the same rule as availability\'s `duration`, so every slot it offers can be booked; a parent names their own children; students_home needs an address whose postcode, without lat and lng, can be located, else 422 on `address.postcode`), the booking window 422 `booking_window_exceeded` (London today..today+14, not in the past), at most three unpaid bookings holding slots 422 `too_many_pending_bookings`, the coupon 422 `coupon_invalid`, then the slot 409 `slot_unavailable`.',
        "Weekly series (CONTRACT §16): `repeat_weeks` n > 1 books the same wall-clock time in the tutor's time zone for n weeks, all or none, in the same transaction; any week not free is 409 `slot_unavailable` with `conflicts` (the ISO starts of those weeks) and nothing is booked. Only the first week must fall in the window. The answer is the first week's detail; every week's detail names its `series` (GET /api/booking-series/{id}). The series counts as one of the three unpaid bookings and its weeks' holds lapse together.",
        "The slot check runs under a per-tutor lock (the tutor's users row, FOR UPDATE) and the database's exclusion constraint backs it, so two overlapping bookings of one tutor never both succeed. The lesson (ACTIVE) and the booking (AWAITING_PAYMENT, price fixed in pence, held for BOOKING_HOLD_MINUTES) are created in one transaction; an unpaid hold then lapses and frees the slot.",
        IDEMPOTENCY_DESCRIPTION,
      ].join('\n\n'),
      security: bearer,
      middleware: [authApi, idempotent(services), jsonBody] as const,
      request: { headers: idempotencyHeaders, body: { content: { 'application/json': { schema: BookingBody } }, required: true } },
      responses: {
        201: jsonContent(one(BookingSchema), 'Booked'),
        409: problemContent('slot_unavailable, idempotency_key_in_flight'),
        ...commonProblems,
      },
    },
    async (c) => {
      const body = c.req.valid('json')
      const booking = await unwrap(
        createBooking(deps, currentUser(c), toCreateBookingInput(body)),
      )
      return c.json({ data: presentBooking(booking, urls) }, 201)
    },
  )

  for (const [paths, self] of [[['/api/bookings', '/api/v1/bookings'], false], [['/api/bookings/self'], true]] as const) {
    mount(
      app,
      paths,
      {
        method: 'get',
        tags,
        summary: self ? 'Bookings the caller made' : 'Bookings',
        description: self
          ? 'Bookings where the caller is the student or parent who booked, latest lesson first.'
          : 'Internal staff see all bookings; everyone else the bookings they made or whose lesson they teach. Latest lesson first.',
        security: bearer,
        middleware: [authApi] as const,
        request: { query: listQuery },
        responses: { 200: jsonContent(listOf(BookingSchema), 'Bookings'), ...commonProblems },
      },
      async (c) => {
        const { page, per_page } = c.req.valid('query')
        const found = await unwrap(listBookings(deps, currentUser(c), { self, page: { page, perPage: per_page } }))
        return c.json({ data: found.items.map((a) => presentBooking(a, urls)), meta: meta(found.total, { page, per_page }) }, 200)
      },
    )
  }

  mount(
    app,
    ['/api/bookings/{id}', '/api/v1/bookings/{id}'],
    {
      method: 'get',
      tags,
      summary: 'A booking in full',
      description: `web.api on /api (bearer, a signed link with uid, or the \`secret\` of an emailed management link, which opens this one booking until the lesson's finish), auth:api on /api/v1 in effect the same. ${VISIBILITY} Carries the lesson, tutor, student, meeting (join URL for online lessons, else null), notes, receipt (price breakdown strings and the payment status), timeline and an iCalendar event.`,
      security: webApiAuth,
      middleware: [webApi(services, { bookingSecret: true })] as const,
      request: { params: idParam, query: bookingSecretQuery },
      responses: { 200: jsonContent(one(BookingSchema), 'The booking'), ...commonProblems },
    },
    async (c) => {
      const booking = await unwrap(getBooking(deps, currentUser(c), c.req.valid('param').id))
      return c.json({ data: presentBooking(booking, urls) }, 200)
    },
  )

  mount(
    app,
    ['/api/bookings/{id}', '/api/v1/bookings/{id}'],
    {
      method: 'put',
      tags,
      summary: "Change the booking's note",
      description: `Body \`{note}\`: the booker's note to the tutor (null clears it). ${VISIBILITY} Only the booker or staff change it (the tutor: 403). States change through pay, cancel and the lesson routes; prices never change.`,
      security: webApiAuth,
      middleware: [webApi(services), jsonBody] as const,
      request: { params: idParam, query: signedLinkQuery, body: { content: { 'application/json': { schema: BookingUpdateBody } }, required: true } },
      responses: { 200: jsonContent(one(BookingSchema), 'The booking'), ...commonProblems },
    },
    async (c) => {
      const booking = await unwrap(updateBooking(deps, currentUser(c), { id: c.req.valid('param').id, note: c.req.valid('json').note }))
      return c.json({ data: presentBooking(booking, urls) }, 200)
    },
  )

  for (const [paths, method] of [[['/api/bookings/{id}/cancel', '/api/v1/bookings/{id}/cancel'], 'put'], [['/api/v1/bookings/{id}'], 'delete']] as const) {
    mount(
      app,
      paths,
      {
        method,
        tags,
        summary: 'Cancel a booking and its lesson',
        description: [
          `Staff, the booker, the lesson's student or parent, and the tutor (403 for other parties; ${VISIBILITY})`,
          'Refund by GET /api/cancellation-policies for a customer (default: 100 % from 24 h before the start, else 50 %, nothing after the start); 100 % when the tutor or staff cancel. 100 % gives REFUNDED, less PARTIAL_REFUNDED; a booking never paid keeps AWAITING_PAYMENT with its lesson CANCELLED ("cancelled unpaid").',
          'The decision is committed first; the processor calls (refund, release or partial capture of a hold) follow through the outbox with idempotency keys, retried until they succeed, so a processor outage never loses or doubles a refund. Both parties get the lesson-cancelled email. Cancelling again: 409 invalid_state_transition.',
          "On /api, the `secret` of an emailed management link cancels this one booking as the person it was sent to, until the lesson's finish.",
        ].join('\n\n'),
        security: webApiAuth,
        middleware: [webApi(services, { bookingSecret: true })] as const,
        request: { params: idParam, query: bookingSecretQuery },
        responses: { 200: jsonContent(one(BookingSchema), 'Cancelled'), 409: problemContent('invalid_state_transition'), ...commonProblems },
      },
      async (c) => {
        const booking = await unwrap(cancelBooking(deps, currentUser(c), { bookingId: c.req.valid('param').id }))
        return c.json({ data: presentBooking(booking, urls) }, 200)
      },
    )
  }

  mount(
    app,
    ['/api/v1/bookings/{id}/reschedule'],
    {
      method: 'put',
      tags,
      summary: 'Propose new times (legacy)',
      description: 'The legacy form of PUT /api/lessons/{id}/edit, by booking id.',
      security: bearer,
      middleware: [authApi, jsonBody] as const,
      request: { params: idParam, body: { content: { 'application/json': { schema: RescheduleBody } }, required: true } },
      responses: { 200: jsonContent(one(BookingSchema), 'Proposed'), 409: problemContent('invalid_state_transition, slot_unavailable'), ...commonProblems },
    },
    async (c) => {
      const actor = currentUser(c)
      const booking = await unwrap(getBooking(deps, actor, c.req.valid('param').id))
      const body = c.req.valid('json')
      const after = await unwrap(
        proposeLessonReschedule(deps, actor, { lessonId: booking.lesson.id, start: new Date(body.suggested_start), finish: new Date(body.suggested_finish) }),
      )
      return c.json({ data: presentBooking(after, urls) }, 200)
    },
  )

  mount(
    app,
    ['/api/v1/bookings/{id}/approve'],
    {
      method: 'put',
      tags,
      summary: 'Accept proposed times (legacy)',
      description: 'The legacy form of PUT /api/lessons/{id}/approve, by booking id.',
      security: bearer,
      middleware: [authApi] as const,
      request: { params: idParam },
      responses: { 200: jsonContent(one(BookingSchema), 'Approved'), 409: problemContent('invalid_state_transition'), ...commonProblems },
    },
    async (c) => {
      const actor = currentUser(c)
      const booking = await unwrap(getBooking(deps, actor, c.req.valid('param').id))
      const after = await unwrap(approveLessonReschedule(deps, actor, booking.lesson.id))
      return c.json({ data: presentBooking(after, urls) }, 200)
    },
  )
}
