import type {
  AddressDirectory,
  AvailabilityDeps,
  BookingDeps,
  FilesDeps,
  NotificationsDeps,
  PaymentsDeps,
  PostcodeParser,
  ProfilesDeps,
  RegistrationDeps,
  ReviewSummaryCache,
  ScheduleDeps,
  SearchDeps,
  SubscriptionsDeps,
  TeachingDeps,
  TutorsDeps,
  VerificationDeps,
} from '@tutoring/domain'
import { createThrottle, memoryReviewCache, type Infrastructure, type Repositories, type Throttle } from '@tutoring/adapters'

export const TOKEN_LIFETIME_SECONDS = 31_557_600

/** The use-case dependencies each route group needs, built once from the infrastructure. */
export type Services = {
  infra: Infrastructure
  /** Accounts' use cases and registration's (which also checks a card with the processor). */
  accounts: RegistrationDeps
  verification: VerificationDeps
  notifications: NotificationsDeps
  profiles: ProfilesDeps
  teaching: TeachingDeps
  schedule: ScheduleDeps
  tutors: TutorsDeps
  bookings: BookingDeps
  reviews: Pick<BookingDeps, 'uow' | 'clock'> & { reviewCache: ReviewSummaryCache }
  availability: AvailabilityDeps
  addresses: { postcodes: PostcodeParser; addresses: AddressDirectory }
  payments: PaymentsDeps
  subscriptions: SubscriptionsDeps
  search: SearchDeps
  /** Uploads and media; typed with every repository so a caller's `attach` can reach its own. */
  files: FilesDeps<Repositories>
  throttles: { general: Throttle; auth: Throttle }
}

export function buildServices(infra: Infrastructure): Services {
  const { config } = infra
  return {
    infra,
    accounts: {
      uow: infra.uow,
      hasher: infra.hasher,
      secrets: infra.secrets,
      links: infra.links,
      processor: infra.processor,
      clock: infra.clock,
      config: { internalMailbox: config.INTERNAL_MAILBOX, tokenLifetimeSeconds: TOKEN_LIFETIME_SECONDS },
    },
    verification: {
      uow: infra.uow,
      identityProvider: infra.identityProvider,
      secrets: infra.secrets,
      clock: infra.clock,
      config: { internalMailbox: config.INTERNAL_MAILBOX },
    },
    notifications: { uow: infra.uow, clock: infra.clock },
    profiles: { uow: infra.uow, clock: infra.clock },
    teaching: { uow: infra.uow, clock: infra.clock },
    schedule: { uow: infra.uow, clock: infra.clock, geocoder: infra.geocoder, postcodes: infra.postcodes },
    tutors: { uow: infra.uow, clock: infra.clock },
    bookings: {
      uow: infra.uow,
      clock: infra.clock,
      processor: infra.processor,
      links: infra.links,
      ids: infra.ids,
      config: infra.bookingConfig,
      availability: {
        postcodes: infra.postcodes,
        geocoder: infra.geocoder,
        travel: infra.travel,
        calendar: infra.calendar,
        config: { serviceFeePercent: config.SERVICE_FEE_PERCENT },
      },
    },
    reviews: { uow: infra.uow, clock: infra.clock, reviewCache: memoryReviewCache() },
    availability: {
      uow: infra.uow,
      clock: infra.clock,
      postcodes: infra.postcodes,
      geocoder: infra.geocoder,
      travel: infra.travel,
      calendar: infra.calendar,
      config: { serviceFeePercent: config.SERVICE_FEE_PERCENT },
    },
    addresses: { postcodes: infra.postcodes, addresses: infra.addresses },
    payments: { uow: infra.uow, processor: infra.processor, clock: infra.clock },
    subscriptions: { uow: infra.uow, processor: infra.processor, clock: infra.clock, config: { portalReturnUrl: `${infra.baseUrl}/` } },
    search: {
      uow: infra.uow,
      clock: infra.clock,
      geocoder: infra.geocoder,
      postcodes: infra.postcodes,
      config: { serviceFeePercent: config.SERVICE_FEE_PERCENT },
    },
    files: {
      uow: infra.uow,
      storage: infra.storage,
      sniffer: infra.sniffer,
      ids: infra.ids,
      clock: infra.clock,
      limits: infra.uploadLimits,
    },
    throttles: {
      general: createThrottle({ name: 'general', limit: config.THROTTLE_PER_MINUTE, redis: infra.redis }),
      auth: createThrottle({ name: 'auth', limit: config.AUTH_THROTTLE_PER_MINUTE, redis: infra.redis }),
    },
  }
}
