import { z } from '@hono/zod-openapi'
import type { LessonTypeName } from '@tutoring/domain/shared'

/**
 * SPEC's two spellings of a lesson type, each named once in the document and referenced
 * wherever it appears: the number bookings and lessons carry and availability takes, and the
 * name search filters, schedules and availability days use.
 */
export const LessonTypeId = z
  .union([z.literal(1), z.literal(2), z.literal(3)])
  .openapi('LessonType', { type: 'integer', enum: [1, 2, 3], description: "1 tutor's home (tutors_home), 2 student's home (students_home), 3 online." })

const NAMES = ['online', 'tutors_home', 'students_home'] as const satisfies readonly LessonTypeName[]
const NAME_DESCRIPTION = 'online, tutors_home (the tutor\'s home) or students_home (the student\'s home).'

/** The name; `error` gives a wrong value a message of its own (the same schema in the document). */
export const lessonTypeNameSchema = (error?: string) =>
  (error === undefined ? z.enum(NAMES) : z.enum(NAMES, { error })).openapi('LessonTypeName', { description: NAME_DESCRIPTION })

export const LessonTypeNameSchema = lessonTypeNameSchema()
