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
import { bookingPaymentsRepositories } from './booking-payments/booking-payments.repositories'
import { bookingRepositories } from './booking/booking.repositories'
import { catalogRepositories } from './catalog/catalog.repositories'
import type { Database } from './db/database'
import { insideBags, outsideBags } from './db/repository-bag'
import { filesRepositories } from './files/files.repositories'
import { integrationsRepositories } from './integrations/integrations.repositories'
import { notesRepositories } from './notes/notes.repositories'
import { notificationsRepositories } from './notifications/notifications.repositories'
import { outboxRepositories } from './outbox/outbox.repositories'
import { paymentsRepositories } from './payments/payments.repositories'
import { profilesRepositories } from './profiles/profiles.repositories'
import { registrationRepositories } from './registration/registration.repositories'
import { reviewsRepositories } from './reviews/reviews.repositories'
import { scheduleRepositories } from './schedule/schedule.repositories'
import { searchRepositories } from './search/search.repositories'
import { subscriptionsRepositories } from './subscriptions/subscriptions.repositories'
import { teachingRepositories } from './teaching/teaching.repositories'
import { tutorsRepositories } from './tutors/tutors.repositories'
import { verificationRepositories } from './verification/verification.repositories'
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
 * Every context's part (`<context>.repositories.ts`, which lists the names it answers); a new
 * repository is a line there, a new context a line here.
 */
const PARTS = [
  accountsRepositories,
  registrationRepositories,
  catalogRepositories,
  profilesRepositories,
  filesRepositories,
  notificationsRepositories,
  verificationRepositories,
  paymentsRepositories,
  subscriptionsRepositories,
  teachingRepositories,
  scheduleRepositories,
  availabilityRepositories,
  searchRepositories,
  tutorsRepositories,
  bookingRepositories,
  notesRepositories,
  bookingPaymentsRepositories,
  reviewsRepositories,
  outboxRepositories,
  webhooksRepositories,
  integrationsRepositories,
] as const

const outsideBag = outsideBags(PARTS)
const insideBag = insideBags(PARTS)

/**
 * Every repository outside a transaction (on the pool): no locks. `now` is the service's clock,
 * which dates what the outbox queues (the worker decides what is due by it).
 */
export function makeRepositories(db: Kysely<Database>, now: () => Date): WithoutLocks<Repositories> {
  return outsideBag({ db, now })
}

/**
 * Every repository bound to one transaction, with the locks each context's part takes there.
 * A part is built when one of its repositories is first read: building all of them for every
 * transaction cost more than half a millisecond of a booking's CPU, which reads few.
 */
export function makeTransactionRepositories(trx: Transaction<Database>, now: () => Date): Repositories {
  return insideBag({ trx, now })
}
