import { z } from '@hono/zod-openapi'
import { DURATION_PREFERENCE, type AddressMatch, type DayAvailability, type TeachAvailability } from '@tutoring/domain/availability'
import { lessonTypeName, type LessonTypeName } from '@tutoring/domain/shared'
import { withinSupportedYears } from '../platform/dates'
import { documentedAs, schemaRef } from '../platform/documented-as'
import { LessonTypeNameSchema } from '../platform/lesson-types'
import { paginationQuery } from '../platform/pagination'
import { PriceBreakdownSchema, presentPriceBreakdown } from '../pricing'

const INT_MAX = 2_147_483_647
/** An empty query value (`post_code=`) counts as absent. */
const blankIsAbsent = (value: unknown) => (value === '' ? undefined : value)
const optionalInt = (description: string) =>
  z.preprocess(blankIsAbsent, z.coerce.number().int().min(-INT_MAX).max(INT_MAX).optional()).openapi({ type: 'integer', description })

const common = {
  teach_id: z.coerce.number().int().positive().max(2 ** 53 - 1).openapi({ description: 'The teach (a subject a tutor teaches).', example: 1 }),
  date: z
    .preprocess(blankIsAbsent, z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a YYYY-MM-DD date').refine(...withinSupportedYears).optional())
    .openapi({ type: 'string', description: "A date in the client's offset. Without it: every date of the 14-day window.", example: '2026-12-01' }),
  duration: optionalInt('Lesson minutes, 30..120 (default 60); slots are this long and the price is for this long.'),
  post_code: z
    .preprocess(blankIsAbsent, z.string().max(16).optional())
    .openapi({
      type: 'string',
      description:
        "The student's UK postcode: needed for students_home (422 without it), decides whether students_home is offered (within the tutor's travel distance), and is the place travel times are measured from. Malformed or unknown: 422 on post_code (`is not a valid UK postcode`, `could not be located`).",
      example: 'SW1A 1AA',
    }),
  utc_offset: optionalInt("The client's offset, minutes east of UTC, -720..840 (default 0). Dates and times in the answer are in it."),
}

const numericLessonType = z.enum(['1', '2', '3']).transform((id) => lessonTypeName(Number(id)) as LessonTypeName)
const namedLessonType = z.enum(['tutors_home', 'students_home', 'online'])

/** `GET /api/availabilites` (spelled so). */
export const legacyAvailabilityQuery = z.object({
  ...common,
  lesson_type: documentedAs(
    { ...schemaRef('LessonType'), description: 'Without it: no travel time applies.' },
    z.preprocess(blankIsAbsent, numericLessonType.optional()),
  ),
})

/** `GET /api/v1/availabilities/search`: the same, lesson types also by name, and the level and exam board. */
export const availabilitySearchQuery = z.object({
  ...common,
  lesson_type: documentedAs(
    { anyOf: [schemaRef('LessonType'), schemaRef('LessonTypeName')], description: 'As a number (1, 2, 3) or a name.' },
    z.preprocess(blankIsAbsent, z.union([numericLessonType, namedLessonType]).optional()),
  ),
  subject_level_id: z
    .preprocess(blankIsAbsent, z.coerce.number().int().positive().max(INT_MAX).optional())
    .openapi({ type: 'integer', description: 'Only schedule entries for this level (or for any); must be a level of the teach (422 otherwise).' }),
  exam_board_id: z
    .preprocess(blankIsAbsent, z.coerce.number().int().positive().max(INT_MAX).optional())
    .openapi({ type: 'integer', description: 'Only schedule entries for this exam board (or for any); must be a board of the teach.' }),
})


const DaySchema = z.object({
  date: z.string().openapi({ example: '2026-12-01' }),
  duration_preference: z.object({ min: z.number().int(), max: z.number().int(), default: z.number().int() }),
  available_lesson_types: z.array(LessonTypeNameSchema),
  times: z.array(z.object({ start: z.string().openapi({ example: '09:00' }), end: z.string().openapi({ example: '10:00' }) })),
})

export const AvailabilityResponseSchema = z.object({
  data: z.object({ lesson_price_breakdown: PriceBreakdownSchema, availabilities: z.array(DaySchema) }),
})

const presentDay = (day: DayAvailability): z.infer<typeof DaySchema> => ({
  date: day.date,
  duration_preference: { ...DURATION_PREFERENCE },
  available_lesson_types: day.lessonTypes,
  times: day.times,
})

/** SPEC.md's availability response. */
export const presentAvailability = (found: TeachAvailability): z.infer<typeof AvailabilityResponseSchema> => ({
  data: { lesson_price_breakdown: presentPriceBreakdown(found.priceBreakdown), availabilities: found.availabilities.map(presentDay) },
})

export const addressSearchQuery = z.object({
  ...paginationQuery,
  postcode: z
    .preprocess(blankIsAbsent, z.string().max(16).optional())
    .openapi({ type: 'string', description: 'A full UK postcode, or the start of one ("SW1A", "SW1A 1").', example: 'SW1A 1AA' }),
  post_code: z.preprocess(blankIsAbsent, z.string().max(16).optional()).openapi({ type: 'string', description: 'Accepted for `postcode`.' }),
})

export const AddressSchema = z.object({
  line1: z.string().nullable(),
  line2: z.string().nullable(),
  city: z.string().nullable(),
  postcode: z.string(),
  country: z.literal('GB'),
  lat: z.number(),
  lng: z.number(),
})

export const presentAddressMatch = (match: AddressMatch): z.infer<typeof AddressSchema> => ({
  line1: match.line1,
  line2: match.line2,
  city: match.city,
  postcode: match.postcode,
  country: match.country,
  lat: match.lat,
  lng: match.lng,
})

export const CalendarFeedBody = z.strictObject({
  url: z.string().max(2048).nullable().openapi({ description: 'An http(s) or webcal:// ICS feed URL; null disconnects.', example: 'https://calendar.example.com/me.ics' }),
})
export const CalendarFeedSchema = z.object({ url: z.string().nullable() })
