import { getAvailability, getCalendarFeed, searchAddresses, setCalendarFeed, type AvailabilityQuery } from '@tutoring/domain/availability'
import { authApi, currentUser } from '../platform/auth'
import { jsonBody } from '../platform/json-body'
import { listOf, one, paginate } from '../platform/pagination'
import { unwrap } from '../platform/respond'
import { bearer, commonProblems, jsonContent, mount, type App, type Handler, type RouteSpec } from '../platform/routes'
import type { Services } from '@tutoring/adapters'
import {
  AddressSchema,
  AvailabilityResponseSchema,
  CalendarFeedBody,
  CalendarFeedSchema,
  addressSearchQuery,
  availabilitySearchQuery,
  legacyAvailabilityQuery,
  presentAddressMatch,
  presentAvailability,
} from './availability.schemas'

const RULES = [
  "Slots follow SPEC.md's availability rules: the tutor's weekly schedule (wall-clock times in the tutor's zone, default Europe/London, so 09:00 stays 09:00 London time across daylight saving changes),",
  'a 15-minute grid from the start of each window, the whole lesson inside one window, clear of the tutor\'s live lessons widened by the entry\'s buffer and,',
  'when both the requested and the booked lesson are in person, by the driving time between their places (routing service, or straight line x 1.3 at 20 mph rounded up to 5 minutes),',
  "clear of events in the tutor's connected calendar feed, off holidays, starting after now, within London's today..today+14.",
  "available_lesson_types lists what the schedule offers that date; students_home only when post_code lies within the tutor's travel distance.",
  'The price is for the requested duration (default 60) with the configured service fee and no coupon.',
  'Unknown, disabled or deleted teach, a deleted tutor, or a tutor who may not be booked (identity, DBS and qualification checks not all passed, or subscription neither trialing nor active): 404, alike. A slot belongs to the client date it starts on.',
].join(' ')

export function availabilityRoutes(app: App, services: Services): void {
  const deps = services.availability

  const publicAvailability = {
    method: 'get' as const,
    tags: ['Availability'],
    summary: "A teach's free lesson times (path spelled so)",
    description: `Public. ${RULES}`,
    request: { query: legacyAvailabilityQuery },
    responses: { 200: jsonContent(AvailabilityResponseSchema, 'Availability'), 404: commonProblems[404], 422: commonProblems[422] },
  } satisfies RouteSpec
  const answerAvailability: Handler<typeof publicAvailability> = async (c) =>
    c.json(presentAvailability(await unwrap(getAvailability(deps, toAvailabilityQuery(c.req.valid('query'))))), 200)
  mount(app, ['/api/availabilites'], publicAvailability, answerAvailability)
  // CONTRACT §16: the correct spelling answers as SPEC's; SPEC's stays for the clients that use it.
  mount(
    app,
    ['/api/availabilities'],
    { ...publicAvailability, summary: "A teach's free lesson times", description: `Public. An alias of GET /api/availabilites (SPEC.md's spelling): the same parameters and the same answer. ${RULES}` },
    answerAvailability,
  )

  mount(
    app,
    ['/api/v1/availabilities/search'],
    {
      method: 'get',
      tags: ['Availability'],
      summary: "A teach's free lesson times, for signed-in clients",
      description: `auth:api. The same answer as GET /api/availabilites; its parameters differ slightly: lesson_type is also accepted as online, tutors_home or students_home, and subject_level_id and exam_board_id narrow the schedule entries to those for that level or board (entries without a filter always count). ${RULES}`,
      security: bearer,
      middleware: [authApi] as const,
      request: { query: availabilitySearchQuery },
      responses: { 200: jsonContent(AvailabilityResponseSchema, 'Availability'), ...commonProblems },
    },
    async (c) => {
      return c.json(presentAvailability(await unwrap(getAvailability(deps, toAvailabilityQuery(c.req.valid('query'))))), 200)
    },
  )

  mount(
    app,
    ['/api/addresses/search', '/api/v1/addresses/search-postcode'],
    {
      method: 'get',
      tags: ['Reference data'],
      summary: 'UK address search by postcode',
      description:
        "Public. `postcode` (or `post_code`): a full postcode answers the addresses known there, or, where no address lines are known (postcodes.io knows none), the postcode itself with its town and coordinates (line1 and line2 null); the start of a postcode (\"SW1A\", \"SW1A 1\") answers up to 20 postcodes starting so. A well-formed postcode nobody knows: an empty list. Neither parameter, or text that is not (the start of) a UK postcode: 422 on `postcode`. Backed by a postcodes.io-compatible service when POSTCODES_API_URL is set, else the postcodes table (`pnpm cli postcodes:import`) and, for a postcode it lacks, the centroid of its district (city null; an outward code alone the table has no postcode of answers as the district itself).",
      request: { query: addressSearchQuery },
      responses: { 200: jsonContent(listOf(AddressSchema), 'Matches'), 422: commonProblems[422] },
    },
    async (c) => {
      const q = c.req.valid('query')
      const text = q.postcode ?? q.post_code ?? ''
      const field = q.postcode === undefined && q.post_code !== undefined ? 'post_code' : 'postcode'
      const matches = await unwrap(searchAddresses(services.addresses, { postcode: text, field }))
      return c.json(paginate(matches.map(presentAddressMatch), q), 200)
    },
  )

  mount(
    app,
    ['/api/v1/calendar-feed'],
    {
      method: 'get',
      tags: ['Availability'],
      summary: "The caller's external calendar feed",
      description: 'Tutors only (403 otherwise). `url` is null when no calendar is connected.',
      security: bearer,
      middleware: [authApi] as const,
      responses: { 200: jsonContent(one(CalendarFeedSchema), 'Feed'), ...commonProblems },
    },
    async (c) => c.json({ data: await unwrap(getCalendarFeed(deps, currentUser(c))) }, 200),
  )

  mount(
    app,
    ['/api/v1/calendar-feed'],
    {
      method: 'put',
      tags: ['Availability'],
      summary: 'Connect or disconnect an external calendar (ICS feed)',
      description:
        "Tutors only (403 otherwise). `url`: an http(s) or webcal:// (read as https) ICS feed, at most 2048 characters, without credentials; null disconnects. Its busy events (recurring ones expanded, time zones honoured; cancelled and free events ignored) block availability. The feed is fetched only from public addresses (every address of the host is checked; loopback, private and link-local are refused), with a timeout and a size cap, and cached for a few minutes; a feed that can not be read blocks nothing.",
      security: bearer,
      middleware: [authApi, jsonBody] as const,
      request: { body: { content: { 'application/json': { schema: CalendarFeedBody } }, required: true } },
      responses: { 200: jsonContent(one(CalendarFeedSchema), 'Saved'), ...commonProblems },
    },
    async (c) => c.json({ data: await unwrap(setCalendarFeed(deps, currentUser(c), c.req.valid('json').url)) }, 200),
  )
}

/** Either family's query, as the use case takes it (the legacy one has no level or board). */
const toAvailabilityQuery = (q: {
  teach_id: number
  date?: AvailabilityQuery['date']
  duration?: number
  lesson_type?: AvailabilityQuery['lessonType']
  post_code?: string
  utc_offset?: number
  subject_level_id?: number
  exam_board_id?: number
}): AvailabilityQuery => ({
  teachId: q.teach_id,
  date: q.date,
  durationMinutes: q.duration,
  lessonType: q.lesson_type,
  studentPostcode: q.post_code,
  utcOffsetMinutes: q.utc_offset,
  subjectLevelId: q.subject_level_id,
  examBoardId: q.exam_board_id,
})
