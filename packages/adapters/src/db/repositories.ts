import type { Kysely, Transaction } from 'kysely'
import type {
  AccountsRepos,
  BookingRepos,
  BookingPaymentsRepos,
  AvailabilityRepos,
  CatalogRepository,
  Clock,
  FilesRepos,
  NotificationsRepos,
  PaymentsRepos,
  RegistrationRepos,
  ReviewsRepos,
  ProfilesRepos,
  ScheduleRepos,
  SubscriptionsRepos,
  SearchRepos,
  TeachingRepos,
  TutorsRepos,
  VerificationRepos,
  WithoutLocks,
} from '@tutoring/domain'
import type { Database } from './database'
import { accessTokenRepository } from './repositories/access-token.repository'
import { catalogRepository } from './repositories/catalog.repository'
import { fileRepository } from './repositories/file.repository'
import { mediaLocks, mediaRepository } from './repositories/media.repository'
import { outboxWriter } from './repositories/outbox.repository'
import { passwordResetRepository } from './repositories/password-reset.repository'
import { personalRecords } from './repositories/personal-records.repository'
import { ownerLocks } from './repositories/profile-owners.repository'
import { referenceLookups } from './repositories/reference-lookups.repository'
import { registrationRecords } from './repositories/registration.repository'
import { userRepository } from './repositories/user.repository'
import { teachRepository } from './repositories/teach.repository'
import { dayScheduleLocks, dayScheduleRepository } from './repositories/day-schedule.repository'
import { holidayRepository } from './repositories/holiday.repository'
import { locationRepository } from './repositories/location.repository'
import { tutorDirectory } from './repositories/tutor-directory.repository'
import { tutorSearchRepository } from './repositories/tutor-search.repository'
import { verificationLocks, verificationRepository } from './repositories/verification.repository'
import { webhookEventLog } from './repositories/webhook-event-log.repository'
import { pushDeliveryLog } from './repositories/push-delivery-log.repository'
import { bookingLocks, bookingRepository } from './repositories/booking.repository'
import { paymentRepository } from './repositories/payment.repository'
import { couponRepository } from './repositories/coupon.repository'
import { noteRepository, reviewLocks, reviewRepository } from './repositories/note.repository'
import { tutorSlotFactsRepository } from './repositories/tutor-slot-facts.repository'
import { bookableTeachRepository } from './repositories/bookable-teach.repository'
import { calendarFeedRepository } from './repositories/calendar-feed.repository'
import { bankAccountLocks, bankAccountRepository } from './repositories/bank-account.repository'
import { cardLocks, cardRepository } from './repositories/card.repository'
import { paymentCustomerRepository } from './repositories/payment-customer.repository'
import { paymentEventLocks, paymentEventRepository } from './repositories/payment-event.repository'
import { subscriptionLocks, subscriptionRepository } from './repositories/subscription.repository'
import { payoutAccountRepository, tutorTransferRepository } from './repositories/payout.repository'

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
  BookingPaymentsRepos &
  ReviewsRepos &
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
