import { z } from '@hono/zod-openapi'
import { CHECK_COMPLETED, VERIFICATION_KINDS, type ProviderEvent, type VerificationRecord } from '@tutoring/domain/verification'
import { pastDate } from '../platform/fields'

export const StoredStatusSchema = z.enum(['PENDING', 'PASS', 'FAIL', 'INTERNAL_REVIEW']).openapi('VerificationStatus', { description: 'PENDING until the provider (or staff) decides: PASS, FAIL or INTERNAL_REVIEW.' })

export const VerificationSchema = z
  .object({
    kind: z.enum(VERIFICATION_KINDS),
    status: StoredStatusSchema,
    reference: z.string().openapi({ description: "The provider's check id (identity) or this service's own (dbs, qualification)" }),
    redirect_url: z.string().nullable().openapi({ description: "The provider's hosted page for an identity check; null offline and for documents" }),
    document_file_id: z.uuid().nullable(),
    certificate_number: z.string().nullable(),
    issue_date: z.string().nullable().openapi({ format: 'date' }),
    updated_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Verification')

export const VerificationEnvelope = z.object({ data: VerificationSchema })

export const presentVerification = (v: VerificationRecord): z.infer<typeof VerificationSchema> => ({
  kind: v.kind,
  status: v.status,
  reference: v.reference,
  redirect_url: v.redirectUrl,
  document_file_id: v.documentFileId,
  certificate_number: v.certificateNumber,
  issue_date: v.issueDate,
  updated_at: v.updatedAt.toISOString(),
})

export const ReviewParams = z.object({
  id: z.coerce.number().int().positive(),
  kind: z.enum(VERIFICATION_KINDS).openapi({ description: '`dbs` or `qualification`; `identity` is a 422 (the provider decides it)' }),
})

export const ReviewBody = z.strictObject({ status: z.enum(['PASS', 'FAIL']) }).openapi('VerificationReviewRequest')

const CheckCompletedData = z.object({
  reference: z.string().min(1).max(255),
  status: z.enum(['PASS', 'FAIL', 'INTERNAL_REVIEW']),
})

/**
 * CONTRACT.md §8. Fields beyond these are tolerated (a provider adds fields without
 * notice); `data` is checked only for `check.completed`, the one type acted on.
 */
export const VerificationEventBody = z
  .object({
    id: z.string().min(1).max(255).openapi({ description: 'Event id; a repeated id is a duplicate and changes nothing' }),
    type: z.string().min(1).max(255).openapi({ example: CHECK_COMPLETED }),
    data: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({
        description: 'For `check.completed`: `{reference, status: "PASS" | "FAIL" | "INTERNAL_REVIEW"}`',
        example: { reference: 'idv_offline_abc', status: 'PASS' },
      }),
  })
  .superRefine((body, ctx) => {
    if (body.type !== CHECK_COMPLETED) return
    const parsed = CheckCompletedData.safeParse(body.data ?? {})
    if (parsed.success) return
    for (const issue of parsed.error.issues) {
      ctx.addIssue({ code: 'custom', path: ['data', ...issue.path.map(String)], message: issue.input === undefined ? 'is required' : issue.message })
    }
  })
  .openapi('VerificationEvent')

export const toProviderEvent = (body: z.infer<typeof VerificationEventBody>): ProviderEvent =>
  body.type === CHECK_COMPLETED ? { id: body.id, type: body.type, result: CheckCompletedData.parse(body.data) } : { id: body.id, type: body.type }

/** The parts a DBS upload may carry beside `file`, as registration's `dbs` takes them. */
export const DbsUploadFields = z.strictObject({
  certificate_number: z.string().trim().regex(/^\d{12}$/, 'must be the 12 digits of the certificate').optional(),
  issue_date: pastDate.optional(),
})

/** A qualification upload is the file alone. */
export const QualificationUploadFields = z.strictObject({})
