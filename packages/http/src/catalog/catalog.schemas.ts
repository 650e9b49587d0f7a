import { z } from '@hono/zod-openapi'

export const SubjectSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    group: z.enum(['ACADEMIC', 'PROFESSIONAL', 'CUSTOM']),
    subject_level_ids: z.array(z.number().int()),
  })
  .openapi('Subject')

export const SubjectGroupSchema = z
  .object({ group: z.enum(['ACADEMIC', 'PROFESSIONAL', 'CUSTOM']), subjects: z.array(SubjectSchema) })
  .openapi('SubjectGroup')

export const TitledSchema = z.object({ id: z.number().int(), title: z.string() })
export const SubjectLevelSchema = TitledSchema.openapi('SubjectLevel')
export const ExamBoardSchema = TitledSchema.openapi('ExamBoard')
export const CountrySchema = z
  .object({ id: z.number().int(), code: z.string().length(2), name: z.string() })
  .openapi('Country')
export const LanguageSchema = z.object({ id: z.number().int(), code: z.string(), name: z.string() }).openapi('Language')
export const LessonLocationSchema = z
  .object({ id: z.number().int(), name: z.string(), slug: z.string(), title: z.string() })
  .openapi('LessonLocation')
export const CancellationPolicySchema = z
  .object({ id: z.number().int(), hours_before_start: z.number().int(), refund_percent: z.number().int() })
  .openapi('CancellationPolicyTier')
export const LessonPriceSchema = z
  .object({
    sign: z.string(),
    currency_code: z.string(),
    display_format: z.string(),
    min_hourly_rate: z.string(),
    max_hourly_rate: z.string(),
    default_hourly_rate: z.string(),
    service_fee_percent: z.number(),
  })
  .openapi('LessonPriceSettings')
export const ServiceNoticeSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    message: z.string(),
    severity: z.enum(['info', 'warning', 'critical']),
    starts_at: z.string(),
    ends_at: z.string().nullable(),
  })
  .openapi('ServiceNotice')
