import { z } from '@hono/zod-openapi'
import { createReview, getTutorReviews } from '@tutoring/domain/reviews'
import type { Services } from '@tutoring/adapters'
import { idParam, webApiAuth } from '../booking'
import { currentUser, signedLinkQuery, webApi } from '../platform/auth'
import { jsonBody } from '../platform/json-body'
import { one } from '../platform/pagination'
import { unwrap } from '../platform/respond'
import { commonProblems, jsonContent, mount, type App } from '../platform/routes'
import { presentSummary, ReviewBody, ReviewSummarySchema } from './reviews.schemas'

export function reviewRoutes(app: App, services: Services): void {
  mount(
    app,
    ['/api/tutors/{id}/review'],
    {
      method: 'get',
      tags: ['Tutors'],
      summary: "A tutor's review summary",
      description:
        'web.api. Count, the overall rating (mean of the three criteria), each criterion\'s mean and the ten latest reviews. Cached per process until the end of the day in London (`cached_until`, also as Cache-Control max-age): a review written today shows tomorrow. 404 for a user who is not a tutor.',
      security: webApiAuth,
      middleware: [webApi(services)] as const,
      request: { params: idParam, query: signedLinkQuery },
      responses: { 200: jsonContent(one(ReviewSummarySchema), 'The summary'), ...commonProblems },
    },
    async (c) => {
      const { summary, expiresAt } = await unwrap(getTutorReviews(services.reviews, c.req.valid('param').id))
      const seconds = Math.max(0, Math.floor((expiresAt.getTime() - services.infra.clock.now().getTime()) / 1000))
      c.header('cache-control', `private, max-age=${seconds}`)
      return c.json({ data: presentSummary(summary, expiresAt) }, 200)
    },
  )

  mount(
    app,
    ['/api/tutors/{id}/review'],
    {
      method: 'post',
      tags: ['Tutors'],
      summary: 'Review a tutor',
      description:
        'web.api. Criteria `knowledge`, `communication`, `punctuality`, each an integer 1..5, and an optional `comment` of at most 300 characters. Only someone who had a lesson with the tutor (a paid or authorised booking whose lesson was not cancelled) may (403 otherwise), and only once one such lesson has finished and its payment was captured (422 `lesson_not_finished` before: a lesson paid later, or cancelled and refunded before it happens, never carries a review); once per tutor (422 on tutor_id).',
      security: webApiAuth,
      middleware: [webApi(services), jsonBody] as const,
      request: { params: idParam, query: signedLinkQuery, body: { content: { 'application/json': { schema: ReviewBody } }, required: true } },
      responses: { 201: jsonContent(one(z.object({ id: z.number().int() })), 'Reviewed'), ...commonProblems },
    },
    async (c) => {
      const body = c.req.valid('json')
      const created = await unwrap(
        createReview(services.reviews, currentUser(c), {
          tutorId: c.req.valid('param').id,
          review: { knowledge: body.knowledge, communication: body.communication, punctuality: body.punctuality, comment: body.comment ?? null },
        }),
      )
      return c.json({ data: created }, 201)
    },
  )
}
