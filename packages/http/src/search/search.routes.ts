import { searchTutors } from '@tutoring/domain/search'
import type { Context } from 'hono'
import type { AppEnv } from '../platform/app-env'
import { refuseNul } from '../platform/json-body'
import { listOf, meta } from '../platform/pagination'
import { declaresBody, isFormType } from '../platform/request-body'
import { problems } from '../platform/problem'
import { unwrap } from '../platform/respond'
import { commonProblems, jsonContent, mount, problemContent, type App } from '../platform/routes'
import { fieldErrorsFrom } from '../platform/validation'
import { mediaUrls } from '../platform/media-urls'
import type { Services } from '@tutoring/adapters'
import { presentSearchItem, SearchParams, SearchRequest, searchQueryString, TutorSearchItemSchema } from './search.schemas'

const tags = ['Search']
const DESCRIPTION = [
  'Public. Tutors who meet all seven rules of SPEC "A tutor appears in results only when" and CONTRACT §14\'s eighth (profile complete, identity, DBS and qualification passed, visible, a subscription trialing or active, a schedule window on the date\'s weekday offering the lesson type, not on holiday that date (today without one), within their own travel distance of the student for tutors_home and students_home when a place is given, date within today..today+14 in London) and who have an enabled teach matching subject_id, any of subject_level_ids and any of exam_boards.',
  'One item per tutor: the matching teach with the lowest hourly rate (then the oldest) is shown and priced for `duration` minutes (default 60) with the configured service fee.',
  'A fully booked tutor still appears: free slots are the availability route\'s business. Schedule entries restricted to a subject, level or board count for any search, as in the eligibility rules.',
  'Place: post_code (located by the geocoder: a malformed postcode and one that cannot be located are 422s on post_code, `is not a valid UK postcode` and `could not be located`, as everywhere postcodes are taken) or lat and lng, not both. location.distance is in miles, in half-mile bands shown by their upper bound, measured to the tutor\'s location rounded to two decimal places (as is the travel-distance rule): exact coordinates never leave the service (null without a place or a tutor location).',
  'sort: distance (default with a place; by half-mile band, then tutor id; 422 without one; tutors without a location last), rating (default otherwise: the overall rating, highest first, then the most reviews; unrated tutors last), price_asc, price_desc (by the shown teach\'s rate). Every order ends on the tutor id.',
  'A date before today or after today + 14 is an empty page, not an error. Malformed values are 422 validation_failed with field errors.',
].join(' ')

export function searchRoutes(app: App, services: Services): void {
  const deps = services.search
  const urls = mediaUrls(services.infra.baseUrl)
  app.openAPIRegistry.register('SearchRequest', SearchParams)

  /** Parses what was sent with the one schema and answers the page. */
  async function answer(sent: Record<string, unknown>) {
    const parsed = SearchRequest.safeParse(sent)
    if (!parsed.success) throw problems.validation(fieldErrorsFrom(parsed.error, sent))
    const input = parsed.data
    const found = await unwrap(searchTutors(deps, input))
    return { data: found.items.map((item) => presentSearchItem(item, urls)), meta: meta(found.total, { page: input.page.page, per_page: input.page.perPage }) }
  }

  mount(
    app,
    ['/api/v1/search'],
    {
      method: 'get',
      tags,
      summary: 'Search tutors',
      description: `${DESCRIPTION} Arrays as subject_level_ids[]=1&subject_level_ids[]=2, subject_level_ids[0]=1&subject_level_ids[1]=2 or repeated subject_level_ids=1; filters as filters[lesson_type]=online. Any other name is a 422 naming it.`,
      request: { query: searchQueryString },
      responses: { 200: jsonContent(listOf(TutorSearchItemSchema), 'Tutors'), 422: commonProblems[422], 429: commonProblems[429] },
    },
    async (c) => c.json(await answer(c.req.valid('query')), 200),
  )

  mount(
    app,
    ['/api/v1/search'],
    {
      method: 'post',
      tags,
      summary: 'Search tutors (parameters in a JSON body, a form body or the query string)',
      description: `${DESCRIPTION} The parameters as a JSON body (the names above, filters as an object or as filters[lesson_type] keys, arrays as arrays or as subject_level_ids[0] keys), a form body (application/x-www-form-urlencoded, spelled as in the query string) or the query string, and answers as GET does; a name given in both the body and the query string is the body's. Any other name is a 422 naming it.`,
      request: {
        query: searchQueryString,
        body: {
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/SearchRequest' } },
            'application/x-www-form-urlencoded': { schema: { type: 'object', description: 'The query string\'s names and spellings.', additionalProperties: { type: 'string' } } },
          },
          required: false,
        },
      },
      responses: { 200: jsonContent(listOf(TutorSearchItemSchema), 'Tutors'), 400: problemContent('malformed_request: a body neither JSON nor a form, or JSON that does not parse'), 422: commonProblems[422], 429: commonProblems[429] },
    },
    async (c) => c.json(await answer({ ...c.req.valid('query'), ...(await sentBody(c)) }), 200),
  )
}

/** The POST body's names: a JSON object, a form's fields (a repeated name as a list), or none. */
async function sentBody(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  if (!declaresBody(c)) return {}
  const text = await c.req.text()
  if (isFormType(c.req.header('content-type'))) {
    const form = new URLSearchParams(text)
    const fields = Object.fromEntries([...new Set(form.keys())].map((name) => [name, form.getAll(name).length === 1 ? form.get(name) : form.getAll(name)]))
    refuseNul(fields)
    return fields
  }
  if (text.trim() === '') return {}
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw problems.malformed('The body is not valid JSON.')
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw problems.validation({ body: ['must be a JSON object'] })
  refuseNul(body)
  return body as Record<string, unknown>
}
