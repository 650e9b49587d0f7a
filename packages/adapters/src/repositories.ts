import type { Kysely, Transaction } from 'kysely'
import type { AccountsRepos } from '@tutoring/domain/accounts'
import type { AvailabilityRepos } from '@tutoring/domain/availability'
import type { BookingRepos } from '@tutoring/domain/booking'
import type { BookingPaymentsRepos } from '@tutoring/domain/booking-payments'
import type { FilesRepos } from '@tutoring/domain/files'
import type { IntegrationsRepos } from '@tutoring/domain/integrations'
import type { NotesRepos } from '@tutoring/domain/notes'
import type { NotificationsRepos } from '@tutoring/domain/notifications'
import type { PaymentsRepos } from '@tutoring/domain/payments'
import type { ProfilesRepos } from '@tutoring/domain/profiles'
import type { RegistrationRepos } from '@tutoring/domain/registration'
import type { ReviewsRepos } from '@tutoring/domain/reviews'
import type { ScheduleRepos } from '@tutoring/domain/schedule'
import type { SearchRepos } from '@tutoring/domain/search'
import type { WithoutLocks } from '@tutoring/domain/shared'
import type { SubscriptionsRepos } from '@tutoring/domain/subscriptions'
import type { TeachingRepos } from '@tutoring/domain/teaching'
import type { TutorsRepos } from '@tutoring/domain/tutors'
import type { VerificationRepos } from '@tutoring/domain/verification'
import { accountsRepositories } from './accounts/accounts.repositories'
import { availabilityRepositories } from './availability/availability.repositories'
import { bookingPaymentsRepositories, withBookingPaymentsLocks } from './booking-payments/booking-payments.repositories'
import { bookingRepositories, withBookingLocks } from './booking/booking.repositories'
import { catalogRepositories } from './catalog/catalog.repositories'
import type { Database } from './db/database'
import { filesRepositories, withFilesLocks } from './files/files.repositories'
import { integrationsRepositories, withIntegrationsLocks } from './integrations/integrations.repositories'
import { notesRepositories } from './notes/notes.repositories'
import { notificationsRepositories } from './notifications/notifications.repositories'
import { outboxRepositories } from './outbox/outbox.repositories'
import { paymentsRepositories, withPaymentsLocks } from './payments/payments.repositories'
import { profilesRepositories, withProfilesLocks } from './profiles/profiles.repositories'
import { registrationRepositories } from './registration/registration.repositories'
import { reviewsRepositories, withReviewsLocks } from './reviews/reviews.repositories'
import { scheduleRepositories, withScheduleLocks } from './schedule/schedule.repositories'
import { searchRepositories } from './search/search.repositories'
import { subscriptionsRepositories, withSubscriptionsLocks } from './subscriptions/subscriptions.repositories'
import { teachingRepositories } from './teaching/teaching.repositories'
import { tutorsRepositories } from './tutors/tutors.repositories'
import { verificationRepositories, withVerificationLocks } from './verification/verification.repositories'
import { webhooksRepositories } from './webhooks/webhooks.repositories'

/** Every repository, as a transaction has them: what the domain's contexts ask of the bag. */
export type Repositories = AccountsRepos &
  RegistrationRepos &
  ProfilesRepos &
  TeachingRepos &
  ScheduleRepos &
  TutorsRepos &
  FilesRepos &
  VerificationRepos &
  BookingRepos &
  NotesRepos &
  BookingPaymentsRepos &
  ReviewsRepos &
  AvailabilityRepos &
  PaymentsRepos &
  SubscriptionsRepos &
  SearchRepos &
  NotificationsRepos &
  IntegrationsRepos

/**
 * Every repository outside a transaction (on the pool): no locks. Each context's folder builds
 * its part (`<context>.repositories.ts`); a new repository is a line there. `now` is the
 * service's clock, which dates what the outbox queues (the worker decides what is due by it).
 */
export function makeRepositories(db: Kysely<Database>, now: () => Date): WithoutLocks<Repositories> {
  return {
    ...accountsRepositories(db),
    ...registrationRepositories(db),
    ...catalogRepositories(db),
    ...profilesRepositories(db),
    ...filesRepositories(db),
    ...notificationsRepositories(db),
    ...verificationRepositories(db),
    ...paymentsRepositories(db),
    ...subscriptionsRepositories(db),
    ...teachingRepositories(db),
    ...scheduleRepositories(db),
    ...availabilityRepositories(db),
    ...searchRepositories(db),
    ...tutorsRepositories(db),
    ...bookingRepositories(db),
    ...notesRepositories(db),
    ...bookingPaymentsRepositories(db),
    ...reviewsRepositories(db),
    ...outboxRepositories(db, now),
    ...webhooksRepositories(db),
    ...integrationsRepositories(db),
  }
}

/** Every repository bound to one transaction, with the locks each context's part takes there. */
export function makeTransactionRepositories(trx: Transaction<Database>, now: () => Date): Repositories {
  const repos = makeRepositories(trx, now)
  return {
    ...repos,
    ...withProfilesLocks(trx, repos),
    ...withFilesLocks(trx, repos),
    ...withVerificationLocks(trx, repos),
    ...withPaymentsLocks(trx, repos),
    ...withSubscriptionsLocks(trx, repos),
    ...withScheduleLocks(trx, repos),
    ...withBookingLocks(trx, repos),
    ...withBookingPaymentsLocks(trx, repos),
    ...withReviewsLocks(trx, repos),
    ...withIntegrationsLocks(trx, repos),
  }
}
