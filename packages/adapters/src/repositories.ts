import type { Kysely, Transaction } from 'kysely'
import type {
  AccountsRepos,
  BookingRepos,
  AvailabilityRepos,
  CatalogRepository,
  Clock,
  FilesRepos,
  NotificationsRepos,
  PaymentsRepos,
  RegistrationRepos,
  ProfilesRepos,
  ScheduleRepos,
  SubscriptionsRepos,
  SearchRepos,
  TeachingRepos,
  TutorsRepos,
  VerificationRepos,
  WithoutLocks,
} from '@tutoring/domain'
import type { Database } from './db/database'
import { accessTokenRepository } from './accounts/access-token.repository'
import { catalogRepository } from './catalog/catalog.repository'
import { fileRepository } from './files/file.repository'
import { mediaLocks, mediaRepository } from './files/media.repository'
import { outboxWriter } from './outbox/outbox.repository'
import { passwordResetRepository } from './accounts/password-reset.repository'
import { personalRecords } from './profiles/personal-records.repository'
import { ownerLocks } from './profiles/profile-owners.repository'
import { referenceLookups } from './registration/reference-lookups.repository'
import { registrationRecords } from './registration/registration.repository'
import { userRepository } from './accounts/user.repository'
import { teachRepository } from './teaching/teach.repository'
import { dayScheduleLocks, dayScheduleRepository } from './schedule/day-schedule.repository'
import { holidayRepository } from './schedule/holiday.repository'
import { locationRepository } from './schedule/location.repository'
import { tutorDirectory } from './tutors/tutor-directory.repository'
import { tutorSearchRepository } from './search/tutor-search.repository'
import { verificationLocks, verificationRepository } from './verification/verification.repository'
import { webhookEventLog } from './webhooks/webhook-event-log.repository'
import { pushDeliveryLog } from './notifications/push-delivery-log.repository'
import { bookingLocks, bookingRepository } from './booking/booking.repository'
import { paymentRepository } from './booking-payments/payment.repository'
import { couponRepository } from './booking/coupon.repository'
import { noteRepository, reviewLocks, reviewRepository } from './booking/note.repository'
import { tutorSlotFactsRepository } from './availability/tutor-slot-facts.repository'
import { bookableTeachRepository } from './availability/bookable-teach.repository'
import { calendarFeedRepository } from './availability/calendar-feed.repository'
import { bankAccountLocks, bankAccountRepository } from './payments/bank-account.repository'
import { cardLocks, cardRepository } from './payments/card.repository'
import { paymentCustomerRepository } from './payments/payment-customer.repository'
import { paymentEventLocks, paymentEventRepository } from './booking-payments/payment-event.repository'
import { subscriptionLocks, subscriptionRepository } from './subscriptions/subscription.repository'
import { payoutAccountRepository, tutorTransferRepository } from './payments/payout-account.repository'

/** Every repository, as a transaction has them. */
export type Repositories = AccountsRepos &
  RegistrationRepos &
  ProfilesRepos &
  TeachingRepos &
  ScheduleRepos &
  TutorsRepos &
  FilesRepos &
  VerificationRepos &
  BookingRepos &
  AvailabilityRepos &
  PaymentsRepos &
  SubscriptionsRepos &
  SearchRepos &
  NotificationsRepos & { catalog: CatalogRepository }

/**
 * Every repository outside a transaction (on the pool): no locks. The clock is the one the
 * domain's rules read where a repository applies them (a tutor's hours taught).
 */
export function makeRepositories(db: Kysely<Database>, clock: Clock): WithoutLocks<Repositories> {
  return {
    users: userRepository(db),
    accessTokens: accessTokenRepository(db),
    passwordResets: passwordResetRepository(db),
    registration: registrationRecords(db),
    reference: referenceLookups(db),
    outbox: outboxWriter(db),
    catalog: catalogRepository(db),
    verifications: verificationRepository(db),
    webhookEvents: webhookEventLog(db),
    pushDeliveries: pushDeliveryLog(db),
    personalRecords: personalRecords(db),
    teaches: teachRepository(db),
    daySchedules: dayScheduleRepository(db),
    holidays: holidayRepository(db),
    locations: locationRepository(db),
    tutorDirectory: tutorDirectory(db),
    files: fileRepository(db),
    media: mediaRepository(db),
    bookings: bookingRepository(db, clock),
    payments: paymentRepository(db),
    coupons: couponRepository(db),
    notes: noteRepository(db),
    reviews: reviewRepository(db),
    bookableTeaches: bookableTeachRepository(db),
    slotFacts: tutorSlotFactsRepository(db),
    calendarFeeds: calendarFeedRepository(db),
    cards: cardRepository(db),
    bankAccounts: bankAccountRepository(db),
    paymentCustomers: paymentCustomerRepository(db),
    paymentEvents: paymentEventRepository(db),
    payoutAccounts: payoutAccountRepository(db),
    tutorTransfers: tutorTransferRepository(db),
    subscriptions: subscriptionRepository(db),
    tutorSearch: tutorSearchRepository(db),
  }
}

/** Every repository bound to one transaction, locks included. */
export function makeTransactionRepositories(trx: Transaction<Database>, clock: Clock): Repositories {
  const repos = makeRepositories(trx, clock)
  return {
    ...repos,
    personalRecords: { ...repos.personalRecords, owners: { ...repos.personalRecords.owners, ...ownerLocks(trx) } },
    verifications: { ...repos.verifications, ...verificationLocks(trx) },
    daySchedules: { ...repos.daySchedules, ...dayScheduleLocks(trx) },
    media: { ...repos.media, ...mediaLocks(trx) },
    bookings: { ...repos.bookings, ...bookingLocks(trx, clock) },
    reviews: { ...repos.reviews, ...reviewLocks(trx) },
    cards: { ...repos.cards, ...cardLocks(trx) },
    bankAccounts: { ...repos.bankAccounts, ...bankAccountLocks(trx) },
    paymentEvents: { ...repos.paymentEvents, ...paymentEventLocks(trx) },
    subscriptions: { ...repos.subscriptions, ...subscriptionLocks(trx) },
  }
}
