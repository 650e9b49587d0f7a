import type { Outbox } from '../outbox'
import type { Clock, RoleId, UnitOfWork } from '../shared'
import type { User, UserWithPassword } from './user'

export type NewUser = {
  email: string
  passwordHash: string
  username: string
  firstname: string
  lastname: string
  roleId: RoleId
  country: string
  processorCustomerId: string | null
}

export type UserPatch = Partial<Pick<User, 'firstname' | 'lastname' | 'username' | 'country'>>

/** Live (not deleted) users only, unless a method says otherwise. */
export interface UserRepository {
  findById(id: number): Promise<User | undefined>
  findByEmailWithPassword(email: string): Promise<UserWithPassword | undefined>
  findByUsername(username: string): Promise<User | undefined>
  isEmailTaken(email: string): Promise<boolean>
  isUsernameTaken(username: string, exceptUserId?: number): Promise<boolean>
  /** Live users whose username starts with `prefix` (case aside), oldest first, at most `limit`. */
  listByUsernamePrefix(prefix: string, limit: number): Promise<User[]>
  /** Undefined when the email or the username is already taken by a live user. */
  insert(user: NewUser): Promise<User | undefined>
  update(id: number, patch: UserPatch): Promise<User>
  setPasswordHash(id: number, passwordHash: string): Promise<void>
  markEmailVerified(id: number, at: Date): Promise<void>
  softDelete(id: number, at: Date): Promise<void>
}

export interface AccessTokenRepository {
  insert(token: { userId: number; tokenHash: string; expiresAt: Date }): Promise<void>
  /** The user of a token that is neither expired, revoked, nor of a deleted user (one indexed join). */
  findLiveUser(tokenHash: string, now: Date): Promise<User | undefined>
  revoke(tokenHash: string, at: Date): Promise<void>
  revokeAllForUser(userId: number, at: Date): Promise<void>
}

export interface PasswordResetRepository {
  insert(reset: { userId: number; tokenHash: string; createdAt: Date }): Promise<void>
  /** An unused reset of that token created at or after `notBefore`. */
  findUsable(tokenHash: string, notBefore: Date): Promise<{ id: number; userId: number } | undefined>
  markAllUsed(userId: number, at: Date): Promise<void>
}

export interface ReferenceLookups {
  countryExists(code: string): Promise<boolean>
}

export interface AccountsRepos {
  users: UserRepository
  accessTokens: AccessTokenRepository
  passwordResets: PasswordResetRepository
  reference: ReferenceLookups
  outbox: Outbox
}

export interface PasswordHasher {
  hash(password: string): Promise<string>
  /** Undefined (unknown user) still costs a full verification, so timing reveals nothing. */
  verify(passwordHash: string | undefined, password: string): Promise<boolean>
}

/** Opaque secrets: at least 32 random bytes, base64url; only their SHA-256 is stored. */
export interface SecretTokens {
  generate(): { token: string; hash: string }
  hash(token: string): string
  /** A short random suffix for usernames and references. */
  randomSuffix(length: number): string
}

/** Absolute links the service e-mails: signed so they can't be forged or outlive `expiresAt`. */
export interface LinkBuilder {
  signedUrl(path: string, params: Record<string, string>, expiresAt: Date): string
  url(path: string, params?: Record<string, string>): string
  /** `path` with a `secret` that lets this user view and cancel this one booking until `expiresAt`. */
  bookingSecretUrl(path: string, grant: { userId: number; bookingId: number }, expiresAt: Date): string
}

/** Reads back the links LinkBuilder made: only one unaltered and unexpired answers. */
export interface LinkReader {
  /** Whether this path and query carries a valid signature (a `signedUrl`'s). */
  isSigned(pathAndQuery: string): boolean
  /** The grant a booking link's `secret` carries (a `bookingSecretUrl`'s). */
  openBookingSecret(secret: string): { userId: number; bookingId: number } | undefined
}

export type AccountsDeps = {
  uow: UnitOfWork<AccountsRepos>
  hasher: PasswordHasher
  secrets: SecretTokens
  links: LinkBuilder
  linkReader: LinkReader
  clock: Clock
  config: { internalMailbox: string; tokenLifetimeSeconds: number }
}
