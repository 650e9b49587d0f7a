import { z } from 'zod'
import { geoPointSchema, isoDateSchema, lessonTypeSchema } from '../shared'
import { holidaySchema, weeklyEntrySchema } from '../schedule'
import { SUBSCRIPTION_STATUSES } from '../subscriptions'
import { VERIFICATION_KINDS, VERIFICATION_STATUSES } from '../verification'

export const tutorSnapshotSchema = z.object({
  profile: z.object({ hasPicture: z.boolean(), hasVideo: z.boolean(), bio: z.string().nullable(), hasAddress: z.boolean(), hasMobile: z.boolean() }),
  verifications: z.record(z.enum(VERIFICATION_KINDS), z.enum(VERIFICATION_STATUSES)),
  subscriptionStatus: z.enum(SUBSCRIPTION_STATUSES).nullable(),
  isVisible: z.boolean(),
  schedule: z.array(weeklyEntrySchema),
  holidays: z.array(holidaySchema),
  location: geoPointSchema.extend({ travelDistanceMiles: z.number().nonnegative() }).nullable(),
})

export const searchQuerySchema = z.object({
  today: isoDateSchema,
  date: isoDateSchema.optional(),
  lessonType: lessonTypeSchema.optional(),
  studentLocation: geoPointSchema.optional(),
})
