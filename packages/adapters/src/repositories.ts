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

/** One context's part of the bag: its repositories, and in a transaction the locks they take there. */
type Part = { outside(db: Kysely<Database>, now: () => Date): object; inside(trx: Transaction<Database>, now: () => Date): object }

const part = <R extends object>(outside: (db: Kysely<Database>, now: () => Date) => R, locks?: (trx: Transaction<Database>, repos: R) => object): Part => ({
  outside,
  inside: (trx, now) => {
    const repos = outside(trx, now)
    return locks ? { ...repos, ...locks(trx, repos) } : repos
  },
})

/**
 * Every context's part (`<context>.repositories.ts`); a new repository is a line there, a new
 * context a line here.
 */
const PARTS: readonly Part[] = [
  part(accountsRepositories),
  part(registrationRepositories),
  part(catalogRepositories),
  part(profilesRepositories, withProfilesLocks),
  part(filesRepositories, withFilesLocks),
  part(notificationsRepositories),
  part(verificationRepositories, withVerificationLocks),
  part(paymentsRepositories, withPaymentsLocks),
  part(subscriptionsRepositories, withSubscriptionsLocks),
  part(teachingRepositories),
  part(scheduleRepositories, withScheduleLocks),
  part(availabilityRepositories),
  part(searchRepositories),
  part(tutorsRepositories),
  part(bookingRepositories, withBookingLocks),
  part(notesRepositories),
  part(bookingPaymentsRepositories, withBookingPaymentsLocks),
  part(reviewsRepositories, withReviewsLocks),
  part(outboxRepositories),
  part(webhooksRepositories),
  part(integrationsRepositories, withIntegrationsLocks),
]

/**
 * Every repository outside a transaction (on the pool): no locks. `now` is the service's clock,
 * which dates what the outbox queues (the worker decides what is due by it).
 */
export function makeRepositories(db: Kysely<Database>, now: () => Date): WithoutLocks<Repositories> {
  return Object.assign({}, ...PARTS.map((p) => p.outside(db, now))) as WithoutLocks<Repositories>
}

/** Which part answers each repository's name (the last, as spreading them in order would): learnt from the first bag built. */
let partByName: Map<string, Part> | undefined

/**
 * Every repository bound to one transaction, with the locks each context's part takes there.
 * A part is built when one of its repositories is first asked for: building all of them for
 * every transaction cost more than half a millisecond of a booking's CPU, which asks for few.
 */
export function makeTransactionRepositories(trx: Transaction<Database>, now: () => Date): Repositories {
  const byName = (partByName ??= new Map(PARTS.flatMap((p) => Object.keys(p.inside(trx, now)).map((name) => [name, p] as const))))
  const built = new Map<Part, Record<string, unknown>>()
  const repository = (name: string): unknown => {
    const owner = byName.get(name)
    if (!owner) return undefined
    let repos = built.get(owner)
    if (!repos) built.set(owner, (repos = owner.inside(trx, now) as Record<string, unknown>))
    return repos[name]
  }
  return new Proxy({} as Repositories, {
    get: (_target, name) => (typeof name === 'string' ? repository(name) : undefined),
    has: (_target, name) => typeof name === 'string' && byName.has(name),
    ownKeys: () => [...byName.keys()],
    getOwnPropertyDescriptor: (_target, name) =>
      typeof name === 'string' && byName.has(name) ? { value: repository(name), enumerable: true, configurable: true, writable: false } : undefined,
  })
}
