import { z } from '@hono/zod-openapi'
import { searchTutors } from '@tutoring/domain/search'
import { jsonBody } from '../platform/json-body'
import { listOf, meta, paginationQuery } from '../platform/pagination'
import { problems } from '../platform/problem'
import { unwrap } from '../platform/respond'
import { commonProblems, jsonContent, mount, type App } from '../platform/routes'
import { fieldErrorsFrom } from '../platform/validation'
import { mediaUrls } from '../platform/media-urls'
import type { Services } from '@tutoring/adapters'
import { fromQueryString, presentSearchItem, SearchParams, searchQueryString, TutorSearchItemSchema } from './search.schemas'

const tags = ['Search']
const DESCRIPTION = [
  'Public. Tutors who meet all seven rules of SPEC "A tutor appears in results only when" and CONTRACT §14\'s eighth (profile complete, identity, DBS and qualification passed, visible, a subscription trialing or active, a schedule window on the date\'s weekday offering the lesson type, not on holiday that date (today without one), within their own travel distance of the student for tutors_home and students_home when a place is given, date within today..today+14 in London) and who have an enabled teach matching subject_id, any of subject_level_ids and any of exam_boards.',
  'One item per tutor: the matching teach with the lowest hourly rate (then the oldest) is shown and priced for `duration` minutes (default 60) with the configured service fee.',
  'A fully booked tutor still appears: free slots are the availability route\'s business. Schedule entries restricted to a subject, level or board count for any search, as in the eligibility rules.',
  'Place: post_code (located by the geocoder: a malformed postcode and one that cannot be located are 422s on post_code, `is not a valid UK postcode` and `could not be located`, as everywhere postcodes are taken) or lat and lng, not both. location.distance is in miles, in half-mile bands shown by their upper bound, measured to the tutor\'s location rounded to two decimal places (as is the travel-distance rule): exact coordinates never leave the service (null without a place or a tutor location).',
  'sort: distance (default with a place; by half-mile band, then tutor id; 422 without one; tutors without a location last), rating (default otherwise: the overall rating, highest first, then the most reviews; unrated tutors last), price_asc, price_desc (by the shown teach\'s rate). Every order ends on the tutor id.',
  'A date before today or after today + 14 is an empty page, not an error. Malformed values are 422 validation_failed with field errors.',
].join(' ')

const paginationOnly = z.strictObject(paginationQuery)

export function searchRoutes(app: App, services: Services): void {
  const deps = services.search
  const urls = mediaUrls(services.infra.baseUrl)

  async function answer(params: SearchParams) {
    const page = { page: params.page ?? 1, per_page: params.per_page ?? 15 }
    const found = await unwrap(
      searchTutors(deps, {
        subjectId: params.subject_id,
        subjectLevelIds: params.subject_level_ids,
        examBoardIds: params.exam_boards,
        date: params.date,
        durationMinutes: params.duration,
        postCode: params.post_code,
        lat: params.lat,
        lng: params.lng,
        sort: params.sort,
        lessonType: params.filters?.lesson_type,
        gender: params.filters?.gender,
        languageId: params.filters?.language,
        page: { page: page.page, perPage: page.per_page },
      }),
    )
    return { data: found.items.map((item) => presentSearchItem(item, urls)), meta: meta(found.total, page) }
  }

  mount(
    app,
    ['/api/v1/search'],
    {
      method: 'get',
      tags,
      summary: 'Search tutors',
      description: `${DESCRIPTION} Arrays as subject_level_ids[]=1&subject_level_ids[]=2 or repeated subject_level_ids=1; filters as filters[lesson_type]=online.`,
      request: { query: searchQueryString },
      responses: { 200: jsonContent(listOf(TutorSearchItemSchema), 'Tutors'), 422: commonProblems[422], 429: commonProblems[429] },
    },
    async (c) => {
      const canonical = fromQueryString(c.req.valid('query'))
      const parsed = SearchParams.safeParse(canonical)
      if (!parsed.success) throw problems.validation(fieldErrorsFrom(parsed.error, canonical))
      return c.json(await answer(parsed.data), 200)
    },
  )

  mount(
    app,
    ['/api/v1/search'],
    {
      method: 'post',
      tags,
      summary: 'Search tutors (parameters in a JSON body)',
      description: `${DESCRIPTION} The body takes the same names, filters as an object; page and per_page in the body or the query string (the body wins).`,
      middleware: [jsonBody] as const,
      request: { query: paginationOnly, body: { content: { 'application/json': { schema: SearchParams } }, required: true } },
      responses: { 200: jsonContent(listOf(TutorSearchItemSchema), 'Tutors'), 422: commonProblems[422], 429: commonProblems[429] },
    },
    async (c) => {
      const body = c.req.valid('json')
      const query = c.req.valid('query')
      return c.json(await answer({ ...body, page: body.page ?? query.page, per_page: body.per_page ?? query.per_page }), 200)
    },
  )
}
