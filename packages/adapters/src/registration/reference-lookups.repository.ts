import type { Kysely } from 'kysely'
import type { RegistrationLookups } from '@tutoring/domain/registration'
import type { Database } from '../db/database'

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp']

export function referenceLookups(db: Kysely<Database>): RegistrationLookups {
  return {
    async countryExists(code) {
      return (await db.selectFrom('countries').select('id').where('code', '=', code).executeTakeFirst()) !== undefined
    },
    async activeSubscriptionPlan() {
      const row = await db
        .selectFrom('subscription_plans')
        .select(['id', 'price_id', 'trial_period_days'])
        .where('active', '=', true)
        .orderBy('id')
        .executeTakeFirst()
      return row && { id: row.id, priceId: row.price_id, trialPeriodDays: row.trial_period_days }
    },
    async isClaimableImage(fileId, userId) {
      const row = await db
        .selectFrom('files')
        .select(['owner_id'])
        .where('id', '=', fileId)
        .where('deleted_at', 'is', null)
        .where('mime_type', 'in', IMAGE_TYPES)
        .executeTakeFirst()
      return row !== undefined && (row.owner_id === null || row.owner_id === userId)
    },
    async claimFile(fileId, userId) {
      await db.updateTable('files').set({ owner_id: userId }).where('id', '=', fileId).execute()
    },
  }
}
