import { createHoliday, deleteHoliday, listHolidays } from '@tutoring/domain/schedule'
import { authApi, currentUser } from '../platform/auth'
import { jsonBody } from '../platform/json-body'
import { listOf, meta, one } from '../platform/pagination'
import { unwrap } from '../platform/respond'
import { bearer, commonProblems, jsonContent, mount, type App } from '../platform/routes'
import type { Services } from '@tutoring/adapters'
import { HolidayBody, HolidaySchema, presentHoliday } from './schedule.schemas'
import { idParam, tutorRecordsQuery } from '../teaching'

const tags = ['Holidays']
const OWNERSHIP = "A tutor's holidays are seen and removed by that tutor and by internal staff; to anyone else they do not exist (404)."

export function holidayRoutes(app: App, services: Services): void {
  const deps = services.schedule

  mount(
    app,
    ['/api/v1/holidays'],
    {
      method: 'get',
      tags,
      summary: "The caller's holidays",
      description: `${OWNERSHIP} Ordered by start date. Internal staff see every tutor's (or one tutor's with tutor_id); students and parents get 403.`,
      security: bearer,
      middleware: [authApi] as const,
      request: { query: tutorRecordsQuery },
      responses: { 200: jsonContent(listOf(HolidaySchema), 'Holidays'), ...commonProblems },
    },
    async (c) => {
      const { tutor_id, page, per_page } = c.req.valid('query')
      const found = await unwrap(listHolidays(deps, currentUser(c), { tutorId: tutor_id, page: { page, perPage: per_page } }))
      return c.json({ data: found.items.map(presentHoliday), meta: meta(found.total, { page, per_page }) }, 200)
    },
  )

  mount(
    app,
    ['/api/v1/holidays'],
    {
      method: 'post',
      tags,
      summary: 'Add a holiday',
      description:
        "Tutor only (403 otherwise). Inclusive calendar dates in the tutor's time zone; end_date not before start_date (one day: both the same). Holidays may overlap each other; past dates are accepted.",
      security: bearer,
      middleware: [authApi, jsonBody] as const,
      request: { body: { content: { 'application/json': { schema: HolidayBody } }, required: true } },
      responses: { 201: jsonContent(one(HolidaySchema), 'Created'), ...commonProblems },
    },
    async (c) => {
      const body = c.req.valid('json')
      const holiday = await unwrap(createHoliday(deps, currentUser(c), { startDate: body.start_date, endDate: body.end_date }))
      return c.json({ data: presentHoliday(holiday) }, 201)
    },
  )

  mount(
    app,
    ['/api/v1/holidays/{id}'],
    {
      method: 'delete',
      tags,
      summary: 'Remove a holiday',
      description: OWNERSHIP,
      security: bearer,
      middleware: [authApi] as const,
      request: { params: idParam },
      responses: { 204: { description: 'Removed' }, ...commonProblems },
    },
    async (c) => {
      await unwrap(deleteHoliday(deps, currentUser(c), c.req.valid('param').id))
      return c.body(null, 204)
    },
  )
}
