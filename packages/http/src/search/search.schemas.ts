import { z } from '@hono/zod-openapi'
import { abbreviateLastname, describeExperience } from '../platform/fields'
import { withinSupportedYears } from '../platform/dates'
import { SEARCH_SORTS, type TutorSearchResult } from '@tutoring/domain/search'
import { presentSearchPriceBreakdown, SearchPriceBreakdownSchema } from '../pricing'
import { referenceId } from '../teaching'
import type { MediaUrls } from '../platform/media-urls'

/** A whole number, as JSON gives it or as a query string spells it. */
const wholeNumber = z
  .union([z.number(), z.string().trim().regex(/^-?\d+$/, 'must be a whole number').transform(Number)])
  .pipe(z.number().int('must be a whole number'))
const decimal = z
  .union([z.number(), z.string().trim().regex(/^-?\d+(\.\d+)?$/, 'must be a number').transform(Number)])
  .pipe(z.number().finite())
const id = wholeNumber.pipe(referenceId).openapi({ type: 'integer' })
const ids = z.array(id).max(50)

/** Far past any real result, and small enough that the row offset stays an exact integer. */
const MAX_PAGE = 1_000_000

const LESSON_TYPE_NAMES = ['online', 'tutors_home', 'students_home'] as const

/**
 * The search's parameters by their canonical names: the POST body, and what the GET query
 * string is read into (`subject_level_ids[]=1`, `filters[lesson_type]=online`).
 */
export const SearchParams = z
  .strictObject({
    subject_id: id.optional(),
    subject_level_ids: ids.optional().openapi({ description: 'A teach matches with any one of these levels.' }),
    exam_boards: ids.optional().openapi({ description: 'Exam board ids; a teach matches with any one of them.' }),
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a YYYY-MM-DD date').refine(...withinSupportedYears).optional().openapi({
      description: 'The lesson date. Before today or after today + 14 (London) finds nobody: an empty page, not an error.',
    }),
    duration: wholeNumber.optional().openapi({ type: 'integer', description: 'Minutes, 30 to 120; default 60. Prices are for this duration.' }),
    post_code: z.string().max(16).optional().openapi({ description: 'A UK postcode, located by the geocoder; 422 when malformed or unknown.' }),
    lat: decimal.optional().openapi({ type: 'number' }),
    lng: decimal.optional().openapi({ type: 'number' }),
    sort: z.enum(SEARCH_SORTS).optional(),
    filters: z
      .strictObject({
        lesson_type: z.enum(LESSON_TYPE_NAMES).optional(),
        gender: z.enum(['male', 'female']).optional(),
        language: id.optional(),
      })
      .optional(),
    page: wholeNumber.pipe(z.number().min(1).max(MAX_PAGE)).optional().openapi({ type: 'integer', description: `1 to ${MAX_PAGE}` }),
    per_page: wholeNumber.pipe(z.number().min(1).max(100)).optional().openapi({ type: 'integer' }),
  })
  .openapi('SearchRequest')
export type SearchParams = z.infer<typeof SearchParams>

const queryValue = z.union([z.string(), z.array(z.string())]).optional()

/** Each name the GET query string takes, with what its value must read as (checked by SearchParams). */
const QUERY_NAMES = {
  subject_id: 'integer: a subject id',
  'subject_level_ids[]': 'integer, repeatable: subject level ids (any one matches)',
  subject_level_ids: 'integer, repeatable: the same as subject_level_ids[]',
  'exam_boards[]': 'integer, repeatable: exam board ids (any one matches)',
  exam_boards: 'integer, repeatable: the same as exam_boards[]',
  date: 'YYYY-MM-DD: the lesson date; outside today..today+14 (London) an empty page',
  duration: 'integer, 30 to 120 minutes (default 60)',
  post_code: 'a UK postcode (422 when malformed or unknown)',
  lat: 'number, with lng: instead of post_code',
  lng: 'number, with lat: instead of post_code',
  sort: 'distance | rating | price_asc | price_desc',
  'filters[lesson_type]': 'online | tutors_home | students_home',
  'filters[gender]': 'male | female',
  'filters[language]': 'integer: a language id',
  page: 'integer, 1 to 1000000 (default 1)',
  per_page: 'integer, 1 to 100 (default 15)',
} as const
type QueryName = keyof typeof QUERY_NAMES

/** The GET query string as it arrives: unknown names are a 422; values are read by SearchParams. */
export const searchQueryString = z.strictObject(
  Object.fromEntries(Object.entries(QUERY_NAMES).map(([name, description]) => [name, queryValue.openapi({ description })])) as Record<QueryName, typeof queryValue>,
)
type SearchQueryString = z.infer<typeof searchQueryString>

const listOfValues = (...values: Array<string | string[] | undefined>): string[] | undefined => {
  const all = values.flatMap((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
  return values.every((v) => v === undefined) ? undefined : all
}

/** Query string names to canonical ones; a scalar given twice stays an array and fails as one. */
export function fromQueryString(q: SearchQueryString): Record<string, unknown> {
  const filters = { lesson_type: q['filters[lesson_type]'], gender: q['filters[gender]'], language: q['filters[language]'] }
  const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))
  return defined({
    subject_id: q.subject_id,
    subject_level_ids: listOfValues(q['subject_level_ids[]'], q.subject_level_ids),
    exam_boards: listOfValues(q['exam_boards[]'], q.exam_boards),
    date: q.date,
    duration: q.duration,
    post_code: q.post_code,
    lat: q.lat,
    lng: q.lng,
    sort: q.sort,
    filters: Object.values(filters).some((v) => v !== undefined) ? defined(filters) : undefined,
    page: q.page,
    per_page: q.per_page,
  })
}

const Titled = z.object({ id: z.number().int(), title: z.string() })

export const TutorSearchItemSchema = z
  .object({
    id: z.number().int(),
    firstname: z.string(),
    lastname: z.string().openapi({ description: 'Initial and a full stop: "S."' }),
    profile_picture_url: z.string(),
    location: z.object({
      distance: z.number().nullable().openapi({
        description:
          "Miles from the student's place, in bands of 0.5 mile, each shown by its upper bound (0.5 is within half a mile, 1.5 is more than 1 and at most 1.5), measured to the tutor's location rounded to two decimal places of a degree; exact coordinates never leave the service, so no set of searches can place a tutor's home. sort=distance orders by band, then by tutor id. Null without a place or a tutor location.",
        example: 1.5,
      }),
    }),
    profile: z.object({ tutoring_experience: z.string().nullable().openapi({ example: '3 years 2 months' }) }),
    teaching_info: z.object({
      teach_id: z.number().int(),
      subject: Titled,
      subject_level: Titled.nullable(),
      exam_boards: z.array(Titled),
    }),
    lesson_price_breakdown: SearchPriceBreakdownSchema,
  })
  .openapi('TutorSearchItem')

export const presentSearchItem = (r: TutorSearchResult, urls: MediaUrls): z.infer<typeof TutorSearchItemSchema> => ({
  id: r.tutorId,
  firstname: r.firstname,
  lastname: abbreviateLastname(r.lastname),
  profile_picture_url: urls.profileImage(r.tutorId),
  location: { distance: r.distanceMiles },
  profile: { tutoring_experience: describeExperience(r.tutoringExperienceMonths) },
  teaching_info: {
    teach_id: r.teach.id,
    subject: r.teach.subject,
    subject_level: r.teach.subjectLevel,
    exam_boards: r.teach.examBoards,
  },
  lesson_price_breakdown: presentSearchPriceBreakdown(r.price),
})
