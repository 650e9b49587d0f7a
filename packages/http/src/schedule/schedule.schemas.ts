import { z } from '@hono/zod-openapi'
import { withinSupportedYears } from '../platform/dates'
import { DAY_NAMES, type DaySchedule, type TutorHoliday, type TutorLocationRecord } from '@tutoring/domain/schedule'
import { LessonTypeNameSchema, lessonTypeNameSchema } from '../platform/lesson-types'
import { referenceId } from '../teaching'

// Formats are only typed here; the domain checks values, so every rule answers in one place.
const clockTime = z.string().max(8).openapi({ pattern: '^([01][0-9]|2[0-3]):(00|15|30|45)$|^24:00$', example: '09:00' })

const SlotInput = z.strictObject({ from: clockTime, to: clockTime })

const day = z
  .string()
  .transform((s) => s.trim().toUpperCase())
  .pipe(z.enum(DAY_NAMES, { error: 'must be SUNDAY, MONDAY, TUESDAY, WEDNESDAY, THURSDAY, FRIDAY or SATURDAY' }))
  .openapi({ type: 'string', enum: [...DAY_NAMES], example: 'MONDAY' })

const lessonType = lessonTypeNameSchema('must be online, tutors_home or students_home')
const filterId = referenceId.nullable()

const dayAvailabilityFields = {
  day,
  slots: z.array(SlotInput).max(48).openapi({ description: 'Windows `from` (inclusive) to `to` (exclusive), HH:MM on the 15-minute grid; 24:00 may end one.' }),
  lesson_types: z.array(lessonType).max(3).openapi({ description: 'At least one, no repeats.' }),
  buffer_minutes: z.number().int().openapi({ description: 'Minutes kept free between lessons: 0 to 120 in steps of 5. Defaults to 0.', example: 15 }),
  subject_id: filterId.optional(),
  subject_level_id: filterId.optional(),
  exam_board_id: filterId.optional(),
}

export const DayAvailabilityBody = z
  .strictObject({ ...dayAvailabilityFields, buffer_minutes: dayAvailabilityFields.buffer_minutes.optional() })
  .openapi('DayAvailabilityRequest')

export const DayAvailabilityUpdateBody = z
  .strictObject({
    day: day.optional(),
    slots: dayAvailabilityFields.slots.optional(),
    lesson_types: dayAvailabilityFields.lesson_types.optional(),
    buffer_minutes: dayAvailabilityFields.buffer_minutes.optional(),
    subject_id: filterId.optional(),
    subject_level_id: filterId.optional(),
    exam_board_id: filterId.optional(),
  })
  .openapi('DayAvailabilityUpdateRequest')

export const DayAvailabilitySchema = z
  .object({
    id: z.number().int(),
    tutor_id: z.number().int(),
    day: z.enum(DAY_NAMES),
    slots: z.array(z.object({ from: z.string(), to: z.string() })),
    lesson_types: z.array(LessonTypeNameSchema),
    buffer_minutes: z.number().int(),
    subject_id: z.number().int().nullable(),
    subject_level_id: z.number().int().nullable(),
    exam_board_id: z.number().int().nullable(),
  })
  .openapi('DayAvailability')

export const presentDayAvailability = (entry: DaySchedule): z.infer<typeof DayAvailabilitySchema> => ({
  id: entry.id,
  tutor_id: entry.tutorId,
  day: entry.day,
  slots: entry.slots.map((s) => ({ from: s.from, to: s.to })),
  lesson_types: entry.lessonTypes,
  buffer_minutes: entry.bufferMinutes,
  subject_id: entry.subjectId,
  subject_level_id: entry.subjectLevelId,
  exam_board_id: entry.examBoardId,
})

const coordinate = z.number().nullable().optional()

export const LocationBody = z
  .strictObject({
    postcode: z.string().max(16).openapi({ example: 'SW1A 1AA', description: 'A UK postcode; stored upper case with one space.' }),
    lat: coordinate.openapi({ example: 51.501, description: 'Required (with lng) while no geocoder is configured.' }),
    lng: coordinate.openapi({ example: -0.1416 }),
    travel_distance_miles: z.number().openapi({ example: 5, description: 'How far the tutor travels to a student: 0 to 100 miles.' }),
  })
  .openapi('LocationRequest')

export const LocationUpdateBody = z
  .strictObject({
    postcode: LocationBody.shape.postcode.optional(),
    lat: coordinate,
    lng: coordinate,
    travel_distance_miles: z.number().optional(),
  })
  .openapi('LocationUpdateRequest')

export const LocationSchema = z
  .object({
    id: z.number().int(),
    tutor_id: z.number().int(),
    postcode: z.string(),
    lat: z.number(),
    lng: z.number(),
    travel_distance_miles: z.number(),
  })
  .openapi('Location')

export const presentLocation = (location: TutorLocationRecord): z.infer<typeof LocationSchema> => ({
  id: location.id,
  tutor_id: location.tutorId,
  postcode: location.postcode,
  lat: location.lat,
  lng: location.lng,
  travel_distance_miles: location.travelDistanceMiles,
})

const date = z.string().max(10).refine(...withinSupportedYears).openapi({ format: 'date', example: '2026-12-24' })

export const HolidayBody = z.strictObject({ start_date: date, end_date: date }).openapi('HolidayRequest')

export const HolidaySchema = z
  .object({ id: z.number().int(), tutor_id: z.number().int(), start_date: z.string(), end_date: z.string() })
  .openapi('Holiday')

export const presentHoliday = (holiday: TutorHoliday): z.infer<typeof HolidaySchema> => ({
  id: holiday.id,
  tutor_id: holiday.tutorId,
  start_date: holiday.startDate,
  end_date: holiday.endDate,
})
