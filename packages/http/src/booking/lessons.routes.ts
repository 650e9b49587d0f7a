import { z } from '@hono/zod-openapi'
import {
  approveLessonReschedule,
  cancelBooking,
  createBooking,
  declineLessonReschedule,
  getLesson,
  listBookings,
  proposeLessonReschedule,
  rateLesson,
  type BookingAggregate,
} from '@tutoring/domain/booking'
import { authApi, currentUser, signedLinkQuery, webApi } from '../platform/auth'
import { IDEMPOTENCY_DESCRIPTION, idempotencyHeaders, idempotent } from '../platform/idempotency'
import { jsonBody } from '../platform/json-body'
import { listOf, meta, one } from '../platform/pagination'
import { problemFromDomain } from '../platform/domain-errors'
import { unwrap } from '../platform/respond'
import { bearer, commonProblems, jsonContent, mount, problemContent, type App } from '../platform/routes'
import type { Services } from '@tutoring/adapters'
import { BookingBody, toCreateBookingInput, LessonSchema, RatingBody, RescheduleBody, idParam, listQuery, presentLesson, webApiAuth } from './booking.schemas'
import { rescheduleConfirmPage, rescheduleDonePage } from './lessons.pages'

const tags = ['Lessons']
const VISIBILITY = 'Staff, the tutor and the booker (student or parent) see a lesson; to anyone else it does not exist (404).'
const ANSWER = 'Only the party that did not propose may answer (403 otherwise, staff included); a lesson not in RESCHEDULE is 409 invalid_state_transition whoever asks, as is a proposal past its expiry.'

const respondQuery = signedLinkQuery.extend({
  action: z.enum(['approve', 'decline']),
  secret: z.string().optional(),
})

export function lessonRoutes(app: App, services: Services): void {
  const deps = services.bookings
  const lessonAnswer = (a: BookingAggregate) => ({ data: presentLesson(a) })

  mount(
    app,
    ['/api/lessons/{id}', '/api/v1/lessons/{id}'],
    {
      method: 'get',
      tags,
      summary: 'A lesson',
      description: `web.api (bearer, signed link with uid, or secret). ${VISIBILITY}`,
      security: webApiAuth,
      middleware: [webApi(services)] as const,
      request: { params: idParam, query: signedLinkQuery },
      responses: { 200: jsonContent(one(LessonSchema), 'The lesson'), ...commonProblems },
    },
    async (c) => c.json(lessonAnswer(await unwrap(getLesson(deps, currentUser(c), c.req.valid('param').id))), 200),
  )

  mount(
    app,
    ['/api/v1/lessons'],
    {
      method: 'get',
      tags,
      summary: 'Lessons (legacy)',
      description: 'The lessons of the bookings the caller may list (staff: all; others: those they booked or teach), latest first.',
      security: bearer,
      middleware: [authApi] as const,
      request: { query: listQuery },
      responses: { 200: jsonContent(listOf(LessonSchema), 'Lessons'), ...commonProblems },
    },
    async (c) => {
      const { page, per_page } = c.req.valid('query')
      const found = await unwrap(listBookings(deps, currentUser(c), { self: false, page: { page, perPage: per_page } }))
      return c.json({ data: found.items.map(presentLesson), meta: meta(found.total, { page, per_page }) }, 200)
    },
  )

  mount(
    app,
    ['/api/v1/lessons'],
    {
      method: 'post',
      tags,
      summary: 'Book a lesson (legacy)',
      description: `The same use case as POST /api/bookings, answering the lesson (201). ${IDEMPOTENCY_DESCRIPTION}`,
      security: bearer,
      middleware: [authApi, idempotent(services), jsonBody] as const,
      request: { headers: idempotencyHeaders, body: { content: { 'application/json': { schema: BookingBody } }, required: true } },
      responses: { 201: jsonContent(one(LessonSchema), 'Booked'), 409: problemContent('slot_unavailable'), ...commonProblems },
    },
    async (c) => {
      const body = c.req.valid('json')
      const booking = await unwrap(
        createBooking(deps, currentUser(c), toCreateBookingInput(body)),
      )
      return c.json(lessonAnswer(booking), 201)
    },
  )

  mount(
    app,
    ['/api/v1/lessons/{id}'],
    {
      method: 'put',
      tags,
      summary: 'Rate a lesson (legacy)',
      description:
        "Body `{experience_rating}` (integer 1..5): once, by the lesson's student or parent (403 otherwise), after the finish (422 lesson_not_finished); a second rating or a cancelled lesson is 409 invalid_state_transition.",
      security: bearer,
      middleware: [authApi, jsonBody] as const,
      request: { params: idParam, body: { content: { 'application/json': { schema: RatingBody } }, required: true } },
      responses: { 200: jsonContent(one(LessonSchema), 'Rated'), 409: problemContent('invalid_state_transition'), ...commonProblems },
    },
    async (c) => {
      const a = await unwrap(rateLesson(deps, currentUser(c), { lessonId: c.req.valid('param').id, rating: c.req.valid('json').experience_rating }))
      return c.json(lessonAnswer(a), 200)
    },
  )

  for (const [paths, method, auth] of [
    [['/api/lessons/{id}/cancel'], 'put', 'web'],
    [['/api/v1/lessons/{id}'], 'delete', 'api'],
  ] as const) {
    mount(
      app,
      paths,
      {
        method,
        tags,
        summary: 'Cancel a lesson',
        description: `Cancels the lesson's booking exactly as PUT /api/bookings/{id}/cancel does (who may, refund tiers, emails). ${VISIBILITY}`,
        security: auth === 'web' ? webApiAuth : bearer,
        middleware: [auth === 'web' ? webApi(services) : authApi] as const,
        request: { params: idParam, ...(auth === 'web' ? { query: signedLinkQuery } : {}) },
        responses: { 200: jsonContent(one(LessonSchema), 'Cancelled'), 409: problemContent('invalid_state_transition'), ...commonProblems },
      },
      async (c) => c.json(lessonAnswer(await unwrap(cancelBooking(deps, currentUser(c), { lessonId: c.req.valid('param').id }))), 200),
    )
  }

  mount(
    app,
    ['/api/lessons/{id}/edit'],
    {
      method: 'put',
      tags,
      summary: 'Propose new times',
      description:
        `Either party (the tutor, or the lesson's student or parent; staff 403) proposes \`suggested_start\`/\`suggested_finish\` at least 72 hours before the original start (422 reschedule_notice_too_short), spanning the lesson's booked length (another length: 422 validation_failed on suggested_finish). The proposed time must be free of the tutor's other lessons, this one aside (409 slot_unavailable). The lesson goes to RESCHEDULE; the other party gets an email with Accept and Decline links signed for them, which open a confirmation page. The proposal expires at the earlier of 48 h and the original start; then the lesson is cancelled with a full refund. ${VISIBILITY}`,
      security: webApiAuth,
      middleware: [webApi(services), jsonBody] as const,
      request: { params: idParam, query: signedLinkQuery, body: { content: { 'application/json': { schema: RescheduleBody } }, required: true } },
      responses: { 200: jsonContent(one(LessonSchema), 'Proposed'), 409: problemContent('invalid_state_transition, slot_unavailable'), ...commonProblems },
    },
    async (c) => {
      const body = c.req.valid('json')
      const a = await unwrap(
        proposeLessonReschedule(deps, currentUser(c), { lessonId: c.req.valid('param').id, start: new Date(body.suggested_start), finish: new Date(body.suggested_finish) }),
      )
      return c.json(lessonAnswer(a), 200)
    },
  )

  mount(
    app,
    ['/api/lessons/{id}/approve'],
    {
      method: 'put',
      tags,
      summary: 'Accept proposed times',
      description: `${ANSWER} The lesson takes the suggested times (409 slot_unavailable if they were taken meanwhile) and is ACTIVE again; both parties get the booked email.`,
      security: webApiAuth,
      middleware: [webApi(services)] as const,
      request: { params: idParam, query: signedLinkQuery },
      responses: { 200: jsonContent(one(LessonSchema), 'Approved'), 409: problemContent('invalid_state_transition'), ...commonProblems },
    },
    async (c) => c.json(lessonAnswer(await unwrap(approveLessonReschedule(deps, currentUser(c), c.req.valid('param').id))), 200),
  )

  mount(
    app,
    ['/api/lessons/{id}/decline'],
    {
      method: 'put',
      tags,
      summary: 'Decline proposed times',
      description: `${ANSWER} The lesson is cancelled with a full refund (REFUNDED; an unpaid booking is just cancelled); both parties get the cancelled email.`,
      security: webApiAuth,
      middleware: [webApi(services)] as const,
      request: { params: idParam, query: signedLinkQuery },
      responses: { 200: jsonContent(one(LessonSchema), 'Declined'), 409: problemContent('invalid_state_transition'), ...commonProblems },
    },
    async (c) => c.json(lessonAnswer(await unwrap(declineLessonReschedule(deps, currentUser(c), c.req.valid('param').id))), 200),
  )

  const html = { content: { 'text/html': { schema: z.string() } } }
  mount(
    app,
    ['/api/lessons/{id}/respond'],
    {
      method: 'get',
      tags,
      summary: 'Confirmation page of an emailed Accept or Decline link',
      description:
        'web.api: the emailed link is signed (`uid`, `expires`, `signature`) for the party asked, until the proposal expires. A GET only shows the question, so link scanners change nothing; its button POSTs to the same URL.',
      security: webApiAuth,
      middleware: [webApi(services)] as const,
      request: { params: idParam, query: respondQuery },
      responses: { 200: { ...html, description: 'The page' }, ...commonProblems },
    },
    async (c) => {
      const a = await unwrap(getLesson(deps, currentUser(c), c.req.valid('param').id))
      return c.html(
        rescheduleConfirmPage({
          action: c.req.valid('query').action,
          subject: a.subject.title,
          start: a.lesson.start.toISOString(),
          suggestedStart: a.lesson.suggestedStart?.toISOString() ?? '-',
          suggestedFinish: a.lesson.suggestedFinish?.toISOString() ?? '-',
        }),
        200,
      )
    },
  )

  mount(
    app,
    ['/api/lessons/{id}/respond'],
    {
      method: 'post',
      tags,
      summary: 'Act on an emailed Accept or Decline link',
      description: `The confirmation page's button: approves or declines as PUT /approve and /decline do, for the user the signed link names. Answers a small HTML page (errors too, with their status). ${ANSWER}`,
      security: webApiAuth,
      middleware: [webApi(services)] as const,
      request: { params: idParam, query: respondQuery },
      responses: { 200: { ...html, description: 'Done' }, ...commonProblems },
    },
    async (c) => {
      const actor = currentUser(c)
      const lessonId = c.req.valid('param').id
      const action = c.req.valid('query').action
      const result = action === 'approve' ? await approveLessonReschedule(deps, actor, lessonId) : await declineLessonReschedule(deps, actor, lessonId)
      if (result.isErr()) {
        const problem = problemFromDomain(result.error)
        return c.html(rescheduleDonePage(problem.title, problem.detail ?? problem.title), problem.status as 200)
      }
      return c.html(
        action === 'approve'
          ? rescheduleDonePage('Accepted', 'The lesson has its new time. Both of you will get a confirmation email.')
          : rescheduleDonePage('Declined', 'The lesson is cancelled and refunded in full.'),
        200,
      )
    },
  )
}
