import type { AddressDirectory, AvailabilityDeps } from '@tutoring/domain/availability'
import type { BookingDeps } from '@tutoring/domain/booking'
import type { BookingPaymentsDeps } from '@tutoring/domain/booking-payments'
import type { CatalogRepository } from '@tutoring/domain/catalog'
import { ANONYMOUS_UPLOAD_ALLOWANCE, type FilesDeps } from '@tutoring/domain/files'
import type { IntegrationsDeps } from '@tutoring/domain/integrations'
import type { NotesDeps } from '@tutoring/domain/notes'
import type { NotificationsDeps } from '@tutoring/domain/notifications'
import type { PaymentsDeps } from '@tutoring/domain/payments'
import type { ProfilesDeps } from '@tutoring/domain/profiles'
import type { RegistrationDeps } from '@tutoring/domain/registration'
import type { ReviewsDeps } from '@tutoring/domain/reviews'
import type { ScheduleDeps } from '@tutoring/domain/schedule'
import type { SearchDeps } from '@tutoring/domain/search'
import type { PostcodeParser } from '@tutoring/domain/shared'
import type { SubscriptionsDeps } from '@tutoring/domain/subscriptions'
import type { TeachingDeps } from '@tutoring/domain/teaching'
import type { TutorsDeps } from '@tutoring/domain/tutors'
import type { VerificationDeps } from '@tutoring/domain/verification'
import type { Infrastructure } from './container'
import { cachedCatalog } from './catalog/cached-catalog'
import type { Repositories } from './repositories'
import { webhookSecrets } from './integrations'
import { memoryReviewCache } from './reviews/review-cache'
import { createAllowance, createThrottle, type Allowance, type Throttle } from './throttle'

/** CONTRACT §3: how long a session token lives, whoever issues it (login, registration, the CLI). */
export const TOKEN_LIFETIME_SECONDS = 31_557_600

/** How long a process keeps a reference list before reading it again (see cachedCatalog). */
export const REFERENCE_CACHE_MS = 30_000

/**
 * The composition root: every use case's dependencies, built once from the infrastructure.
 * The server's routes, its background jobs and every CLI command take them from here.
 */
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
  /** Bookings and lessons, and the payments of bookings. */
  bookings: BookingDeps & BookingPaymentsDeps
  notes: NotesDeps
  reviews: ReviewsDeps
  /** Outbound webhooks: endpoints, their deliveries and the worker sending them. */
  integrations: IntegrationsDeps
  availability: AvailabilityDeps
  addresses: { postcodes: PostcodeParser; addresses: AddressDirectory }
  payments: PaymentsDeps
  subscriptions: SubscriptionsDeps
  search: SearchDeps
  /** Reference lists, kept per process for REFERENCE_CACHE_MS. */
  reference: { catalog: CatalogRepository }
  /** Uploads and media; typed with every repository so a caller's `attach` can reach its own. */
  files: FilesDeps<Repositories>
  /** Request limits per minute (CONTRACT §9), shared through Redis when it is configured. */
  /** Requests a minute (general, auth) and anonymous upload bytes an hour, each per client address or user. */
  throttles: { general: Throttle; auth: Throttle; anonymousUploads: Allowance }
}

export function buildServices(infra: Infrastructure): Services {
  const { config, uow, clock } = infra
  const availabilityPorts = {
    postcodes: infra.postcodes,
    geocoder: infra.geocoder,
    travel: infra.travel,
    calendar: infra.calendar,
    config: { serviceFeePercent: config.SERVICE_FEE_PERCENT },
  }
  return {
    infra,
    accounts: {
      uow,
      hasher: infra.hasher,
      secrets: infra.secrets,
      links: infra.links,
      linkReader: infra.linkReader,
      processor: infra.processor,
      clock,
      config: { internalMailbox: config.INTERNAL_MAILBOX, tokenLifetimeSeconds: TOKEN_LIFETIME_SECONDS },
    },
    verification: {
      uow,
      identityProvider: infra.identityProvider,
      secrets: infra.secrets,
      clock,
      config: { internalMailbox: config.INTERNAL_MAILBOX },
    },
    notifications: { uow, clock },
    profiles: { uow, clock },
    teaching: { uow, clock },
    schedule: { uow, clock, geocoder: infra.geocoder, postcodes: infra.postcodes },
    tutors: { uow, clock },
    bookings: {
      uow,
      clock,
      processor: infra.processor,
      links: infra.links,
      ids: infra.ids,
      config: infra.bookingConfig,
      availability: availabilityPorts,
    },
    notes: { uow, links: infra.links, clock },
    reviews: { uow, clock, reviewCache: memoryReviewCache() },
    integrations: {
      uow,
      clock,
      secrets: webhookSecrets,
      urls: infra.webhooks.urls,
      sender: infra.webhooks.sender,
      config: { leaseSeconds: config.OUTBOX_LEASE_SECONDS },
    },
    availability: { uow, clock, ...availabilityPorts },
    addresses: { postcodes: infra.postcodes, addresses: infra.addresses },
    payments: { uow, processor: infra.processor, clock },
    subscriptions: { uow, processor: infra.processor, clock, config: { portalReturnUrl: `${infra.baseUrl}/` } },
    search: {
      uow,
      clock,
      geocoder: infra.geocoder,
      postcodes: infra.postcodes,
      config: { serviceFeePercent: config.SERVICE_FEE_PERCENT },
    },
    reference: { catalog: cachedCatalog(uow.repos.catalog, REFERENCE_CACHE_MS, () => clock.now()) },
    files: {
      uow,
      storage: infra.storage,
      sniffer: infra.sniffer,
      ids: infra.ids,
      clock,
      limits: infra.uploadLimits,
    },
    throttles: {
      general: createThrottle({ name: 'general', limit: config.THROTTLE_PER_MINUTE, redis: infra.redis }),
      auth: createThrottle({ name: 'auth', limit: config.AUTH_THROTTLE_PER_MINUTE, redis: infra.redis }),
      anonymousUploads: createAllowance({
        name: 'anonymous-uploads',
        limit: ANONYMOUS_UPLOAD_ALLOWANCE.bytes,
        windowSeconds: ANONYMOUS_UPLOAD_ALLOWANCE.windowSeconds,
        redis: infra.redis,
      }),
    },
  }
}
