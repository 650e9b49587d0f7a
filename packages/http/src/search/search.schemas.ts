import { z } from '@hono/zod-openapi'
import { abbreviateLastname, describeExperience } from '../platform/fields'
import { withinSupportedYears } from '../platform/dates'
import { SEARCH_SORTS, type SearchTutorsInput, type TutorSearchResult } from '@tutoring/domain/search'
import { presentSearchPriceBreakdown, SearchPriceBreakdownSchema } from '../pricing'
import { referenceId } from '../teaching'
import { documentedAs, schemaRef } from '../platform/documented-as'
import { LessonTypeNameSchema } from '../platform/lesson-types'
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

/** The search's filters, named apart so the query string's `filters[gender]` can reference each. */
const SearchFilters = z
  .strictObject({
    lesson_type: LessonTypeNameSchema.optional(),
    gender: z.enum(['male', 'female']).optional(),
    language: id.optional().openapi({ type: 'integer', description: 'A language id.' }),
  })
  .openapi('SearchFilters')

/**
 * The search's parameters by their canonical names: a JSON body's shape, and what every other
 * spelling is read into (`subject_level_ids[]=1`, `filters[lesson_type]=online`).
 */
export const SearchParams = z
  .strictObject({
    subject_id: id.optional().openapi({ type: 'integer', description: 'A subject id; a teach of that subject matches.' }),
    subject_level_ids: ids.optional().openapi({ description: 'A teach matches with any one of these levels.' }),
    exam_boards: ids.optional().openapi({ description: 'Exam board ids; a teach matches with any one of them.' }),
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a YYYY-MM-DD date').refine(...withinSupportedYears).optional().openapi({
      description: 'The lesson date. Before today or after today + 14 (London) finds nobody: an empty page, not an error.',
    }),
    duration: wholeNumber.optional().openapi({ type: 'integer', minimum: 30, maximum: 120, description: 'Minutes, 30 to 120; default 60. Prices are for this duration.' }),
    post_code: z.string().max(16).optional().openapi({ description: 'A UK postcode, located by the geocoder; 422 when malformed or unknown.' }),
    lat: decimal.optional().openapi({ type: 'number', minimum: -90, maximum: 90, description: 'With lng, instead of post_code.' }),
    lng: decimal.optional().openapi({ type: 'number', minimum: -180, maximum: 180, description: 'With lat, instead of post_code.' }),
    sort: z.enum(SEARCH_SORTS).optional().openapi({ description: 'distance needs a place (post_code, or lat and lng); the default with one, rating without.' }),
    filters: SearchFilters.optional(),
    page: wholeNumber.pipe(z.number().min(1).max(MAX_PAGE)).optional().openapi({ type: 'integer', minimum: 1, maximum: MAX_PAGE, description: 'Default 1.' }),
    per_page: wholeNumber.pipe(z.number().min(1).max(100)).optional().openapi({ type: 'integer', minimum: 1, maximum: 100, description: 'Default 15.' }),
  })
  .openapi('SearchRequest')

/**
 * Each name the query string (and a form body) takes as SPEC spells it, and the property of
 * SearchRequest it reads into: the document gives each name that property's schema (integers,
 * enums, lists), so a generated client sends `per_page: 100`, while SearchRequest, which reads
 * every spelling, stays the one parser and the one source of each type.
 */
type QueryName = { property: string; of?: 'SearchRequest' | 'SearchFilters'; description?: string }

const QUERY_NAMES = {
  subject_id: { property: 'subject_id' },
  'subject_level_ids[]': { property: 'subject_level_ids', description: 'Repeated; also subject_level_ids[0], subject_level_ids[1], ... or repeated subject_level_ids.' },
  'exam_boards[]': { property: 'exam_boards', description: 'Repeated; also exam_boards[0], exam_boards[1], ... or repeated exam_boards.' },
  date: { property: 'date' },
  duration: { property: 'duration' },
  post_code: { property: 'post_code' },
  lat: { property: 'lat' },
  lng: { property: 'lng' },
  sort: { property: 'sort' },
  'filters[lesson_type]': { property: 'lesson_type', of: 'SearchFilters' },
  'filters[gender]': { property: 'gender', of: 'SearchFilters' },
  'filters[language]': { property: 'language', of: 'SearchFilters' },
  page: { property: 'page' },
  per_page: { property: 'per_page' },
} as const satisfies Record<string, QueryName>

/** A query name's value, documented as the property it reads into; SearchRequest alone parses it. */
const documentedName = (documented: Parameters<typeof documentedAs>[0]) => z.unknown().optional().openapi(documented)

/**
 * The query string as the document lists it. Only documented: the route's validator passes
 * every value through as the query string gave it (text, or a list of texts), and
 * SearchRequest, run by the handler, is the one parser. A parsing schema here parsed every
 * search twice (about 2 % of the search route's server time in its profile). The catchall lets
 * the indexed spellings (`subject_level_ids[0]`) through to SearchRequest, which refuses any
 * name it does not know.
 */
export const searchQueryString = z
  .object(
    Object.fromEntries(
      Object.entries(QUERY_NAMES).map(([name, { property, of = 'SearchRequest', ...described }]: [string, QueryName]) => [name, documentedName({ ...schemaRef(`${of}/properties/${property}`), ...described })]),
    ) as Record<keyof typeof QUERY_NAMES, ReturnType<typeof documentedName>>,
  )
  .catchall(z.unknown())

/** Names that hold a list: `name` (a JSON array, or repeated), `name[]` or `name[0]`. */
const LIST_NAMES: ReadonlySet<string> = new Set(['subject_level_ids', 'exam_boards'])
const BRACKETED = /^([a-z_]+)\[([a-z_]*|\d+)\]$/

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Each list name's items, with the index each was sent at (MAX_SAFE_INTEGER when none). */
type Lists = Map<string, Array<{ at: number; value: unknown }>>

// At module level: the build keeps function names (esbuild --keep-names), which renames a
// closure made inside a function on every call.
function addToList(lists: Lists, name: string, value: unknown, at = Number.MAX_SAFE_INTEGER): void {
  const list = lists.get(name) ?? []
  lists.set(name, list)
  for (const item of Array.isArray(value) ? value : [value]) list.push({ at, value: item })
}

/**
 * The parameters in SearchParams' shape, from any form a client sends them in (CONTRACT §17):
 * a JSON body with arrays and a `filters` object, or flat names from a query string or a
 * form (`subject_level_ids[]`, `subject_level_ids[0]`, `filters[lesson_type]`). A single text
 * value of a list name is a one-item list. A name it does not know stays as sent, so
 * SearchParams refuses it by that name; keys are data (a Map, so `__proto__` is a name).
 */
function canonicalNames(sent: unknown): unknown {
  if (!isRecord(sent)) return sent
  const out = new Map<string, unknown>()
  const lists: Lists = new Map()
  const filters = new Map<string, unknown>()
  for (const [key, value] of Object.entries(sent)) {
    const bracketed = BRACKETED.exec(key)
    if (bracketed && LIST_NAMES.has(bracketed[1]!) && (bracketed[2] === '' || /^\d+$/.test(bracketed[2]!))) {
      addToList(lists, bracketed[1]!, value, bracketed[2] === '' ? undefined : Number(bracketed[2]))
    } else if (bracketed && bracketed[1] === 'filters' && bracketed[2] !== '') {
      filters.set(bracketed[2]!, value)
    } else if (LIST_NAMES.has(key) && (Array.isArray(value) || typeof value === 'string')) {
      addToList(lists, key, value)
    } else if (key === 'filters' && isRecord(value)) {
      for (const [name, item] of Object.entries(value)) filters.set(name, item)
    } else {
      out.set(key, value)
    }
  }
  // A stable sort: indexed items by their index, the rest after them in the order sent.
  for (const [name, list] of lists) out.set(name, list.sort((a, b) => a.at - b.at).map((item) => item.value))
  if (filters.size > 0) out.set('filters', Object.fromEntries(filters))
  return Object.fromEntries(out)
}

/**
 * The one schema that reads a search (issue 25: parsed once, into the criteria): the sent
 * names made canonical, checked by SearchParams, handed to the use case as its input.
 */
export const SearchRequest = z.preprocess(canonicalNames, SearchParams).transform(
  (p): SearchTutorsInput => ({
    subjectId: p.subject_id,
    subjectLevelIds: p.subject_level_ids,
    examBoardIds: p.exam_boards,
    date: p.date,
    durationMinutes: p.duration,
    postCode: p.post_code,
    lat: p.lat,
    lng: p.lng,
    sort: p.sort,
    lessonType: p.filters?.lesson_type,
    gender: p.filters?.gender,
    languageId: p.filters?.language,
    page: { page: p.page ?? 1, perPage: p.per_page ?? 15 },
  }),
)

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
