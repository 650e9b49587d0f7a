import { createTeach, deleteTeach, listAvailableTeaches, listTeaches, setTeachEnabled, updateTeach } from '@tutoring/domain/teaching'
import { authApi, currentUser } from '../platform/auth'
import { jsonBody } from '../platform/json-body'
import { listOf, meta, one } from '../platform/pagination'
import { unwrap } from '../platform/respond'
import { bearer, commonProblems, jsonContent, mount, type App } from '../platform/routes'
import type { Services } from '@tutoring/adapters'
import {
  AvailableTeachSchema,
  TeachBody,
  TeachSchema,
  TeachUpdateBody,
  availableTeachesQuery,
  idParam,
  presentAvailableTeach,
  presentTeach,
  tutorRecordsQuery,
} from './teaching.schemas'

const tags = ['Teaches']
const OWNERSHIP =
  "Tutor only. A tutor's teaches are seen and changed by that tutor and by internal staff; to anyone else they do not exist (404)."
const ONE_PER_SUBJECT = 'One live teach per tutor and subject (its levels and exam boards say the rest): a second one is a 422 on subject_id.'

export function teachRoutes(app: App, services: Services): void {
  const deps = services.teaching

  mount(
    app,
    ['/api/v1/teaches'],
    {
      method: 'get',
      tags,
      summary: "The caller's teaches",
      description: `${OWNERSHIP} Internal staff see every tutor's (or one tutor's with tutor_id); students and parents get 403.`,
      security: bearer,
      middleware: [authApi] as const,
      request: { query: tutorRecordsQuery },
      responses: { 200: jsonContent(listOf(TeachSchema), 'Teaches'), ...commonProblems },
    },
    async (c) => {
      const { tutor_id, page, per_page } = c.req.valid('query')
      const found = await unwrap(listTeaches(deps, currentUser(c), { tutorId: tutor_id, page: { page, perPage: per_page } }))
      return c.json({ data: found.items.map(presentTeach), meta: meta(found.total, { page, per_page }) }, 200)
    },
  )

  mount(
    app,
    ['/api/v1/teaches'],
    {
      method: 'post',
      tags,
      summary: 'Add a subject the caller teaches',
      description: `Tutor only (403 otherwise). ${ONE_PER_SUBJECT} The hourly rate is stored in pence.`,
      security: bearer,
      middleware: [authApi, jsonBody] as const,
      request: { body: { content: { 'application/json': { schema: TeachBody } }, required: true } },
      responses: { 201: jsonContent(one(TeachSchema), 'Created'), ...commonProblems },
    },
    async (c) => {
      const body = c.req.valid('json')
      const teach = await unwrap(
        createTeach(deps, currentUser(c), {
          subjectId: body.subject_id,
          subjectLevelIds: body.subject_level_ids,
          examBoardIds: body.exam_board_ids ?? [],
          hourlyRatePence: body.hourly_rate,
          enabled: body.enabled,
        }),
      )
      return c.json({ data: presentTeach(teach) }, 201)
    },
  )

  mount(
    app,
    ['/api/v1/teaches/{id}'],
    {
      method: 'put',
      tags,
      summary: 'Change a teach',
      description: `${OWNERSHIP} Any of the fields; the result is checked as a whole. A new subject needs its own subject_level_ids. ${ONE_PER_SUBJECT}`,
      security: bearer,
      middleware: [authApi, jsonBody] as const,
      request: { params: idParam, body: { content: { 'application/json': { schema: TeachUpdateBody } }, required: true } },
      responses: { 200: jsonContent(one(TeachSchema), 'Updated'), ...commonProblems },
    },
    async (c) => {
      const body = c.req.valid('json')
      const teach = await unwrap(
        updateTeach(deps, currentUser(c), {
          id: c.req.valid('param').id,
          patch: {
            subjectId: body.subject_id,
            subjectLevelIds: body.subject_level_ids,
            examBoardIds: body.exam_board_ids,
            hourlyRatePence: body.hourly_rate,
            enabled: body.enabled,
          },
        }),
      )
      return c.json({ data: presentTeach(teach) }, 200)
    },
  )

  mount(
    app,
    ['/api/v1/teaches/{id}'],
    {
      method: 'delete',
      tags,
      summary: 'Remove a teach',
      description: `${OWNERSHIP} A soft delete: lessons booked on it keep their record.`,
      security: bearer,
      middleware: [authApi] as const,
      request: { params: idParam },
      responses: { 204: { description: 'Removed' }, ...commonProblems },
    },
    async (c) => {
      await unwrap(deleteTeach(deps, currentUser(c), c.req.valid('param').id))
      return c.body(null, 204)
    },
  )

  for (const [action, enabled] of [['enable', true], ['disable', false]] as const) {
    mount(
      app,
      [`/api/v1/teaches/{id}/${action}`],
      {
        method: 'put',
        tags,
        summary: enabled ? 'Offer a teach again' : 'Stop offering a teach for now',
        description: `${OWNERSHIP} No body. Repeating it is harmless.`,
        security: bearer,
        middleware: [authApi] as const,
        request: { params: idParam },
        responses: { 200: jsonContent(one(TeachSchema), 'The teach'), ...commonProblems },
      },
      async (c) => {
        const teach = await unwrap(setTeachEnabled(deps, currentUser(c), { id: c.req.valid('param').id, enabled }))
        return c.json({ data: presentTeach(teach) }, 200)
      },
    )
  }

  mount(
    app,
    ['/api/teaches'],
    {
      method: 'get',
      tags,
      summary: 'Available teaches',
      description:
        'Public. Enabled teaches of live tutors who may be booked (identity, DBS and qualification checks all passed, subscription trialing or active), oldest first, with subject, level and exam board titles. Filters: tutor_id, subject_id, subject_level_id, exam_board_id. Not limited to tutors visible in search: the regulars of a hidden tutor still find what they teach.',
      request: { query: availableTeachesQuery },
      responses: { 200: jsonContent(listOf(AvailableTeachSchema), 'Teaches'), 422: commonProblems[422], 429: commonProblems[429] },
    },
    async (c) => {
      const { page, per_page, tutor_id, subject_id, subject_level_id, exam_board_id } = c.req.valid('query')
      const found = await unwrap(
        listAvailableTeaches(
          deps,
          { tutorId: tutor_id, subjectId: subject_id, subjectLevelId: subject_level_id, examBoardId: exam_board_id },
          { page, perPage: per_page },
        ),
      )
      return c.json({ data: found.items.map(presentAvailableTeach), meta: meta(found.total, { page, per_page }) }, 200)
    },
  )
}
