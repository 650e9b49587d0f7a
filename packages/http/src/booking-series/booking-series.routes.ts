import { cancelBookingSeries, getBookingSeries } from '@tutoring/domain/booking-series'
import type { Services } from '@tutoring/adapters'
import { authApi, currentUser } from '../platform/auth'
import { mediaUrls } from '../platform/media-urls'
import { one } from '../platform/pagination'
import { unwrap } from '../platform/respond'
import { bearer, commonProblems, jsonContent, mount, problemContent, type App } from '../platform/routes'
import { idParam } from '../booking'
import { BookingSeriesSchema, presentBookingSeries } from './booking-series.schemas'

const tags = ['Bookings']
const VISIBILITY = 'Visible as its bookings are: internal staff, the booker (student or parent) and the tutor; to anyone else it does not exist (404).'

export function bookingSeriesRoutes(app: App, services: Services): void {
  const deps = services.bookings
  const urls = mediaUrls(services.infra.baseUrl)

  mount(
    app,
    ['/api/booking-series/{id}'],
    {
      method: 'get',
      tags,
      summary: 'A weekly series',
      description: `A series booked with \`repeat_weeks\` > 1 (CONTRACT §16) and each week's booking detail. ${VISIBILITY}`,
      security: bearer,
      middleware: [authApi] as const,
      request: { params: idParam },
      responses: { 200: jsonContent(one(BookingSeriesSchema), 'The series'), ...commonProblems },
    },
    async (c) => {
      const series = await unwrap(getBookingSeries(deps, currentUser(c), c.req.valid('param').id))
      return c.json({ data: presentBookingSeries(series, urls) }, 200)
    },
  )

  mount(
    app,
    ['/api/booking-series/{id}/cancel'],
    {
      method: 'put',
      tags,
      summary: 'Cancel the weeks of a series not yet started',
      description: [
        `Every week not yet started and not already cancelled is cancelled as \`PUT /api/bookings/{id}/cancel\` cancels one booking, each under the cancellation policy (its own refund tier by its own start; 100 % when the tutor or staff cancel). Weeks already started or cancelled stay as they are; none left to cancel: 409 \`invalid_state_transition\`. ${VISIBILITY}`,
        'Answers the series as it now stands.',
      ].join('\n\n'),
      security: bearer,
      middleware: [authApi] as const,
      request: { params: idParam },
      responses: { 200: jsonContent(one(BookingSeriesSchema), 'Cancelled'), 409: problemContent('invalid_state_transition'), ...commonProblems },
    },
    async (c) => {
      const series = await unwrap(cancelBookingSeries(deps, currentUser(c), c.req.valid('param').id))
      return c.json({ data: presentBookingSeries(series, urls) }, 200)
    },
  )
}
