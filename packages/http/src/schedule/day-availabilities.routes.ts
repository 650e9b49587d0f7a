import { createDaySchedule, deleteDaySchedule, listDaySchedules, updateDaySchedule } from '@tutoring/domain/schedule'
import { authApi, currentUser } from '../platform/auth'
import { jsonBody } from '../platform/json-body'
import { listOf, meta, one } from '../platform/pagination'
import { unwrap } from '../platform/respond'
import { bearer, commonProblems, jsonContent, mount, type App } from '../platform/routes'
import type { Services } from '@tutoring/adapters'
import { DayAvailabilityBody, DayAvailabilitySchema, DayAvailabilityUpdateBody, presentDayAvailability } from './schedule.schemas'
import { idParam, tutorRecordsQuery } from '../teaching'

const tags = ['Schedule']
const OWNERSHIP =
  "A tutor's weekly schedule entries are seen and changed by that tutor and by internal staff; to anyone else they do not exist (404)."
const RULES = [
  'Days repeat weekly (stored as 0 = Sunday .. 6 = Saturday); times are wall-clock HH:MM in the tutor\'s time zone (profile time_zone, default Europe/London).',
  'Windows: from before to, on the 15-minute grid, 24:00 may end one.',
  "No window may overlap another window of the same day, in the same entry or in the tutor's other entries of that day, whatever their subject, level or exam board filters: the tutor is one person.",
  'At least one lesson type, no repeats; buffer_minutes 0 to 120 in steps of 5 (default 0).',
  'Filters are optional (null: any); they must exist, and a level given with a subject must be one of its levels.',
].join(' ')

export function dayAvailabilityRoutes(app: App, services: Services): void {
  const deps = services.schedule

  mount(
    app,
    ['/api/v1/day-availabilities'],
    {
      method: 'get',
      tags,
      summary: "The caller's weekly schedule",
      description: `${OWNERSHIP} Ordered by day, then first window. Internal staff see every tutor's (or one tutor's with tutor_id); students and parents get 403.`,
      security: bearer,
      middleware: [authApi] as const,
      request: { query: tutorRecordsQuery },
      responses: { 200: jsonContent(listOf(DayAvailabilitySchema), 'Entries'), ...commonProblems },
    },
    async (c) => {
      const { tutor_id, page, per_page } = c.req.valid('query')
      const found = await unwrap(listDaySchedules(deps, currentUser(c), { tutorId: tutor_id, page: { page, perPage: per_page } }))
      return c.json({ data: found.items.map(presentDayAvailability), meta: meta(found.total, { page, per_page }) }, 200)
    },
  )

  mount(
    app,
    ['/api/v1/day-availabilities'],
    {
      method: 'post',
      tags,
      summary: 'Add a weekly schedule entry',
      description: `Tutor only (403 otherwise). ${RULES}`,
      security: bearer,
      middleware: [authApi, jsonBody] as const,
      request: { body: { content: { 'application/json': { schema: DayAvailabilityBody } }, required: true } },
      responses: { 201: jsonContent(one(DayAvailabilitySchema), 'Created'), ...commonProblems },
    },
    async (c) => {
      const body = c.req.valid('json')
      const entry = await unwrap(
        createDaySchedule(deps, currentUser(c), {
          day: body.day,
          slots: body.slots,
          lessonTypes: body.lesson_types,
          bufferMinutes: body.buffer_minutes,
          subjectId: body.subject_id,
          subjectLevelId: body.subject_level_id,
          examBoardId: body.exam_board_id,
        }),
      )
      return c.json({ data: presentDayAvailability(entry) }, 201)
    },
  )

  mount(
    app,
    ['/api/v1/day-availabilities/{id}'],
    {
      method: 'put',
      tags,
      summary: 'Change a weekly schedule entry',
      description: `${OWNERSHIP} Any of the fields (slots replace the old ones; null clears a filter); the result is checked whole. ${RULES}`,
      security: bearer,
      middleware: [authApi, jsonBody] as const,
      request: { params: idParam, body: { content: { 'application/json': { schema: DayAvailabilityUpdateBody } }, required: true } },
      responses: { 200: jsonContent(one(DayAvailabilitySchema), 'Updated'), ...commonProblems },
    },
    async (c) => {
      const body = c.req.valid('json')
      const entry = await unwrap(
        updateDaySchedule(deps, currentUser(c), {
          id: c.req.valid('param').id,
          patch: {
            day: body.day,
            slots: body.slots,
            lessonTypes: body.lesson_types,
            bufferMinutes: body.buffer_minutes,
            subjectId: body.subject_id,
            subjectLevelId: body.subject_level_id,
            examBoardId: body.exam_board_id,
          },
        }),
      )
      return c.json({ data: presentDayAvailability(entry) }, 200)
    },
  )

  mount(
    app,
    ['/api/v1/day-availabilities/{id}'],
    {
      method: 'delete',
      tags,
      summary: 'Remove a weekly schedule entry',
      description: `${OWNERSHIP} Lessons already booked stay booked.`,
      security: bearer,
      middleware: [authApi] as const,
      request: { params: idParam },
      responses: { 204: { description: 'Removed' }, ...commonProblems },
    },
    async (c) => {
      await unwrap(deleteDaySchedule(deps, currentUser(c), c.req.valid('param').id))
      return c.body(null, 204)
    },
  )
}
