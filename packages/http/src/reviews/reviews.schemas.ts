import { z } from '@hono/zod-openapi'
import type { Review, ReviewSummary } from '@tutoring/domain/reviews'

const rating = z.number().int().min(1).max(5)
export const ReviewBody = z
  .strictObject({
    knowledge: rating,
    communication: rating,
    punctuality: rating,
    comment: z.string().max(300).trim().nullish(),
  })
  .openapi('ReviewRequest')
export const ReviewSummarySchema = z
  .object({
    tutor_id: z.number().int(),
    count: z.number().int(),
    overall_rating: z.number().nullable(),
    criteria: z.object({ knowledge: z.number().nullable(), communication: z.number().nullable(), punctuality: z.number().nullable() }),
    latest: z.array(z.object({ id: z.number().int(), knowledge: z.number().int(), communication: z.number().int(), punctuality: z.number().int(), comment: z.string().nullable(), created_at: z.string() })),
    cached_until: z.string(),
  })
  .openapi('TutorReviewSummary')

export const presentSummary = (s: ReviewSummary, until: Date): z.infer<typeof ReviewSummarySchema> => ({
  tutor_id: s.tutorId,
  count: s.count,
  overall_rating: s.average,
  criteria: s.criteria,
  latest: s.latest.map((r) => ({ id: r.id, knowledge: r.knowledge, communication: r.communication, punctuality: r.punctuality, comment: r.comment, created_at: r.createdAt.toISOString() })),
  cached_until: until.toISOString(),
})

export const ReviewSchema = z
  .object({
    id: z.number().int(),
    tutor_id: z.number().int(),
    reviewer_id: z.number().int(),
    knowledge: z.number().int(),
    communication: z.number().int(),
    punctuality: z.number().int(),
    comment: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('Review')

export const presentReview = (r: Review): z.infer<typeof ReviewSchema> => ({
  id: r.id,
  tutor_id: r.tutorId,
  reviewer_id: r.reviewerId,
  knowledge: r.knowledge,
  communication: r.communication,
  punctuality: r.punctuality,
  comment: r.comment,
  created_at: r.createdAt.toISOString(),
})
