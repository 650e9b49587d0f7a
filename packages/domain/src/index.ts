/**
 * The package's public face: each context's index.ts names what it offers (its use cases with
 * their input, output and error types, its ports and the records they carry, and the rules
 * and tables other contexts or packages use); everything else stays inside its context.
 * This file only gathers those faces, in the order of the context table in README.md.
 */
export * from './shared'
export * from './outbox'
export * from './catalog'
export * from './pricing'
export * from './lesson'
export * from './accounts'
export * from './profiles'
export * from './files'
export * from './notifications'
export * from './teaching'
export * from './schedule'
export * from './verification'
export * from './payments'
export * from './subscriptions'
export * from './availability'
export * from './search'
export * from './tutors'
export * from './booking'
export * from './booking-payments'
export * from './reviews'
export * from './registration'
export type { DomainError, DomainErrorType } from './errors'
