import { z } from '@hono/zod-openapi'
import { formatPence, parsePounds } from '@tutoring/domain/shared'
import type { AvailableTeach, Teach } from '@tutoring/domain/teaching'
import { paginationQuery } from '../platform/pagination'

/** Reference data ids are 32-bit integer columns. */
const INT_MAX = 2_147_483_647
export const referenceId = z.number().int().positive().max(INT_MAX)
const id = referenceId
const ids = z.array(id).max(50)

/** Pounds as a decimal string ("25.00"); a plain JSON number with at most two decimals is read too. */
export const hourlyRateField = z
  .union([z.string(), z.number()])
  .transform((value, ctx) => {
    const pence = parsePounds(typeof value === 'number' ? String(value) : value.trim())
    if (pence === undefined) {
      ctx.addIssue({ code: 'custom', message: 'must be an amount in pounds like "25.00"' })
      return z.NEVER
    }
    return pence
  })
  .openapi({ type: 'string', example: '25.00', description: 'Pounds with at most two decimals, within the lesson-price bounds (GET /api/lesson-price).' })

export const TeachBody = z
  .strictObject({
    subject_id: id,
    subject_level_ids: ids.openapi({ description: 'At least one; each a level of the subject.' }),
    exam_board_ids: ids.optional().openapi({ description: 'Optional; defaults to none.' }),
    hourly_rate: hourlyRateField,
    enabled: z.boolean().optional().openapi({ description: 'Defaults to true: a new teach is enabled.' }),
  })
  .openapi('TeachRequest')

export const TeachUpdateBody = z
  .strictObject({
    subject_id: id.optional(),
    subject_level_ids: ids.optional(),
    exam_board_ids: ids.optional(),
    hourly_rate: hourlyRateField.optional(),
    enabled: z.boolean().optional(),
  })
  .openapi('TeachUpdateRequest')

export const TeachSchema = z
  .object({
    id: z.number().int(),
    tutor_id: z.number().int(),
    subject_id: z.number().int(),
    subject_level_ids: z.array(z.number().int()),
    exam_board_ids: z.array(z.number().int()),
    hourly_rate: z.string().openapi({ example: '25.00' }),
    enabled: z.boolean(),
    created_at: z.string(),
  })
  .openapi('Teach')

const Titled = z.object({ id: z.number().int(), title: z.string() })

export const AvailableTeachSchema = TeachSchema.extend({
  subject: Titled,
  subject_levels: z.array(Titled),
  exam_boards: z.array(Titled),
}).openapi('AvailableTeach')

export const presentTeach = (teach: Teach): z.infer<typeof TeachSchema> => ({
  id: teach.id,
  tutor_id: teach.tutorId,
  subject_id: teach.subjectId,
  subject_level_ids: teach.subjectLevelIds,
  exam_board_ids: teach.examBoardIds,
  hourly_rate: formatPence(teach.hourlyRatePence),
  enabled: teach.enabled,
  created_at: teach.createdAt.toISOString(),
})

export const presentAvailableTeach = (teach: AvailableTeach): z.infer<typeof AvailableTeachSchema> => ({
  ...presentTeach(teach),
  subject: teach.subject,
  subject_levels: teach.subjectLevels,
  exam_boards: teach.examBoards,
})

const optionalId = z.coerce.number().int().positive().optional()

/** Lists of a tutor's records: internal staff may narrow to one tutor with `tutor_id`. */
export const tutorRecordsQuery = z.object({
  ...paginationQuery,
  tutor_id: optionalId.openapi({ description: 'Internal staff only: one tutor. A tutor always sees their own.' }),
})

export const availableTeachesQuery = z.object({
  ...paginationQuery,
  tutor_id: optionalId,
  subject_id: z.coerce.number().int().positive().max(INT_MAX).optional(),
  subject_level_id: z.coerce.number().int().positive().max(INT_MAX).optional(),
  exam_board_id: z.coerce.number().int().positive().max(INT_MAX).optional(),
})

export const idParam = z.object({ id: z.coerce.number().int().positive().max(2 ** 53 - 1) })
