import { z } from 'zod'
import { instantSchema, isoDateSchema, isValidTimeZone, lessonTypeSchema } from '../shared'
import { holidaySchema, weeklyEntrySchema } from '../schedule'
import { DURATION_PREFERENCE } from './lesson-duration'

/** CONTRACT.md §5: the client's offset, minutes east of UTC. */
export const UTC_OFFSET_MINUTES = { min: -720, max: 840 } as const

const minutesSchema = z.number().nonnegative()
const idSchema = z.number().int().positive()

export const bookedLessonSchema = z
  .object({ start: instantSchema, finish: instantSchema, inPerson: z.boolean(), travelBeforeMinutes: minutesSchema.optional(), travelAfterMinutes: minutesSchema.optional() })
  .refine((l) => !(l.finish < l.start), { message: 'must not be before start', path: ['finish'] })

export const busyIntervalSchema = z
  .object({ start: instantSchema, end: instantSchema })
  .refine((b) => !(b.end < b.start), { message: 'must not be before start', path: ['end'] })

export const availabilityRequestSchema = z.object({
  date: isoDateSchema.optional(),
  durationMinutes: z.number().int().min(DURATION_PREFERENCE.min).max(DURATION_PREFERENCE.max).optional(),
  lessonType: lessonTypeSchema.optional(),
  subjectId: idSchema.optional(),
  subjectLevelId: idSchema.optional(),
  examBoardId: idSchema.optional(),
  utcOffsetMinutes: z.number().int().min(UTC_OFFSET_MINUTES.min).max(UTC_OFFSET_MINUTES.max).optional(),
})

export const availabilityInputSchema = z.object({
  schedule: z.array(weeklyEntrySchema),
  timeZone: z.string().refine(isValidTimeZone, 'must be an IANA time zone').optional(),
  holidays: z.array(holidaySchema).optional(),
  lessons: z.array(bookedLessonSchema).optional(),
  busy: z.array(busyIntervalSchema).optional(),
  withinTravelDistance: z.boolean().optional(),
  request: availabilityRequestSchema,
  now: instantSchema,
})
