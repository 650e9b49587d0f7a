import type { Outbox } from '../outbox'
import type { Clock, UnitOfWork } from '../shared'
import type {
  UserAddress,
  AddressFields,
  Child,
  ChildFields,
  DevicePlatform,
  Education,
  EducationFields,
  Gender,
  MobileNumber,
  Owner,
  PersonalDetails,
  Profession,
  ProfessionFields,
  UserProfile,
  SocialLink,
  SocialLinkFields,
  UserDevice,
} from './records'

export interface OwnerDirectory {
  /** A live user; undefined when unknown or deleted. */
  find(userId: number): Promise<Owner | undefined>
  /** As `find`, holding the user's row until the transaction ends, to serialise per-user rules. */
  lock(userId: number): Promise<Owner | undefined>
}

/** A user's records of one kind. Removed records (soft-deleted ones too) are never found. */
export interface OwnedRecords<T, Fields> {
  listByUser(userId: number): Promise<T[]>
  findById(id: number): Promise<T | undefined>
  insert(userId: number, fields: Fields): Promise<T>
  update(id: number, patch: Partial<Fields>): Promise<T>
  remove(id: number, at: Date): Promise<void>
}

export type PersonalDetailsPatch = { dateOfBirth?: string | null; gender?: Gender | null }

export interface PersonalDetailsRepository {
  listByUser(userId: number): Promise<PersonalDetails[]>
  findById(id: number): Promise<PersonalDetails | undefined>
  update(id: number, patch: PersonalDetailsPatch): Promise<PersonalDetails>
  /** Replaces the user's whole set of spoken languages. */
  setLanguages(userId: number, languageIds: number[]): Promise<void>
}

export type ProfilePatch = Partial<
  Pick<UserProfile, 'bio' | 'teacherReferenceNumber' | 'tutoringExperienceMonths' | 'isVisible'>
>

export interface UserProfileRepository {
  listByUser(userId: number): Promise<UserProfile[]>
  findById(id: number): Promise<UserProfile | undefined>
  update(id: number, patch: ProfilePatch): Promise<UserProfile>
}

export interface UserAddressRepository extends OwnedRecords<UserAddress, AddressFields> {
  removeAllForUser(userId: number): Promise<void>
}

export type MobileNumberRepository = OwnedRecords<MobileNumber, { number: string }>

export interface UserDeviceRepository {
  listByUser(userId: number): Promise<UserDevice[]>
  findById(id: number): Promise<UserDevice | undefined>
  /** Gives the token to `userId` (whoever held it before loses it); one row per token. */
  claimToken(userId: number, device: { platform: DevicePlatform; pushToken: string }): Promise<UserDevice>
  /** Drops any row holding `pushToken` other than `exceptId`. */
  releaseToken(pushToken: string, exceptId: number): Promise<void>
  update(id: number, patch: { platform?: DevicePlatform; pushToken?: string }): Promise<UserDevice>
  remove(id: number): Promise<void>
}

export interface ProfileLookups {
  countryExists(code: string): Promise<boolean>
  /** The ids among `languageIds` that name no language. */
  unknownLanguageIds(languageIds: number[]): Promise<number[]>
}

/** Everything a user keeps about themselves, grouped under one key of the repositories bag. */
export interface PersonalRecords {
  owners: OwnerDirectory
  personalDetails: PersonalDetailsRepository
  profiles: UserProfileRepository
  education: OwnedRecords<Education, EducationFields>
  professions: OwnedRecords<Profession, ProfessionFields>
  children: OwnedRecords<Child, ChildFields>
  addresses: UserAddressRepository
  mobileNumbers: MobileNumberRepository
  devices: UserDeviceRepository
  socialLinks: OwnedRecords<SocialLink, SocialLinkFields>
  lookups: ProfileLookups
}

export interface ProfilesRepos {
  personalRecords: PersonalRecords
  outbox: Outbox
}

export type ProfilesDeps = { uow: UnitOfWork<ProfilesRepos>; clock: Clock }
