import type { Kysely } from 'kysely'
import type { RegistrationRecords } from '@tutoring/domain/registration'
import type { Database } from '../db/database'

/** The rows a registration writes beside the user, in the registration's transaction. */
export function registrationRecords(db: Kysely<Database>): RegistrationRecords {
  return {
    async insertPersonalDetails(userId, { dateOfBirth }) {
      await db.insertInto('personal_details').values({ user_id: userId, date_of_birth: dateOfBirth, gender: null }).execute()
    },
    async insertAddress(userId, address) {
      await db.insertInto('addresses').values({ user_id: userId, ...address }).execute()
    },
    async insertMobileNumber(userId, number) {
      await db.insertInto('mobile_numbers').values({ user_id: userId, number }).execute()
    },
    async insertProfile(userId, { pictureFileId }) {
      await db
        .insertInto('profiles')
        .values({
          user_id: userId,
          profile_picture_file_id: pictureFileId,
          bio: null,
          teacher_reference_number: null,
          tutoring_experience_months: null,
          profile_video_file_id: null,
        })
        .execute()
    },
    async insertDbsVerification(userId, dbs) {
      await db
        .insertInto('verifications')
        .values({
          user_id: userId,
          kind: 'dbs',
          status: 'PENDING',
          reference: dbs.reference,
          certificate_number: dbs.certificateNumber,
          issue_date: dbs.issueDate,
          redirect_url: null,
          document_file_id: null,
          reviewed_by: null,
        })
        .execute()
    },
    async insertDefaultCard(userId, card) {
      await db
        .insertInto('cards')
        .values({
          user_id: userId,
          processor_payment_method_id: card.paymentMethodId,
          brand: card.brand,
          last4: card.last4,
          exp_month: card.expMonth,
          exp_year: card.expYear,
          is_default: true,
          deleted_at: null,
        })
        .execute()
    },
    async insertTrialSubscription(userId, { planId, trialEndsAt }) {
      const row = await db
        .insertInto('subscriptions')
        .values({
          user_id: userId,
          plan_id: planId,
          status: 'trialing',
          trial_ends_at: trialEndsAt,
          processor_subscription_id: null,
          current_period_end: trialEndsAt,
          deleted_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      return { subscriptionId: row.id }
    },
  }
}
