import type { Kysely } from 'kysely'
import type {
  AddressFields,
  Child,
  ChildFields,
  Education,
  EducationFields,
  MobileNumber,
  PersonalRecords,
  Profession,
  ProfessionFields,
  SocialLink,
  SocialLinkFields,
  UserAddress,
} from '@tutoring/domain/profiles'
import type { WithoutLocks } from '@tutoring/domain/shared'
import type { Database } from '../db/database'
import { ownedRecordRepository, type OwnedRecordTable } from './owned-record.repository'
import { personalDetailsRepository } from './personal-details.repository'
import { ownerDirectory, profileLookups } from './profile-owners.repository'
import { userDeviceRepository } from './user-device.repository'
import { userProfileRepository } from './user-profile.repository'

const education: OwnedRecordTable<'education', Education, EducationFields> = {
  table: 'education',
  owner: 'user_id',
  columns: { institution: 'institution', qualification: 'qualification', subject: 'subject', startYear: 'start_year', endYear: 'end_year' },
  order: [['start_year', 'desc']],
  toRecord: (row) => ({
    id: row.id,
    userId: row.user_id,
    institution: row.institution,
    qualification: row.qualification,
    subject: row.subject,
    startYear: row.start_year,
    endYear: row.end_year,
  }),
}

const professions: OwnedRecordTable<'professions', Profession, ProfessionFields> = {
  table: 'professions',
  owner: 'user_id',
  columns: { title: 'title', organisation: 'organisation', startDate: 'start_date', endDate: 'end_date', description: 'description' },
  order: [['start_date', 'desc']],
  toRecord: (row) => ({
    id: row.id,
    userId: row.user_id,
    title: row.title,
    organisation: row.organisation,
    startDate: row.start_date,
    endDate: row.end_date,
    description: row.description,
  }),
}

/** Soft-deleted: lessons keep their links to a removed child. */
const children: OwnedRecordTable<'children', Child, ChildFields> = {
  table: 'children',
  owner: 'parent_id',
  columns: { firstname: 'firstname', lastname: 'lastname', dateOfBirth: 'date_of_birth' },
  softDelete: true,
  toRecord: (row) => ({ id: row.id, userId: row.parent_id, firstname: row.firstname, lastname: row.lastname, dateOfBirth: row.date_of_birth }),
}

const addresses: OwnedRecordTable<'addresses', UserAddress, AddressFields> = {
  table: 'addresses',
  owner: 'user_id',
  columns: { line1: 'line1', line2: 'line2', city: 'city', postcode: 'postcode', country: 'country' },
  toRecord: (row) => ({
    id: row.id,
    userId: row.user_id,
    line1: row.line1,
    line2: row.line2,
    city: row.city,
    postcode: row.postcode,
    country: row.country.trim(),
  }),
}

const mobileNumbers: OwnedRecordTable<'mobile_numbers', MobileNumber, { number: string }> = {
  table: 'mobile_numbers',
  owner: 'user_id',
  columns: { number: 'number' },
  toRecord: (row) => ({ id: row.id, userId: row.user_id, number: row.number }),
}

const socialLinks: OwnedRecordTable<'social_links', SocialLink, SocialLinkFields> = {
  table: 'social_links',
  owner: 'user_id',
  columns: { platform: 'platform', url: 'url' },
  toRecord: (row) => ({ id: row.id, userId: row.user_id, platform: row.platform, url: row.url }),
}

/** The profiles context's repositories, one key in the bag (the owners' lock is added in a transaction). */
export function personalRecords(db: Kysely<Database>): WithoutLocks<PersonalRecords> {
  return {
    owners: ownerDirectory(db),
    personalDetails: personalDetailsRepository(db),
    profiles: userProfileRepository(db),
    education: ownedRecordRepository(db, education),
    professions: ownedRecordRepository(db, professions),
    children: ownedRecordRepository(db, children),
    addresses: {
      ...ownedRecordRepository(db, addresses),
      async removeAllForUser(userId) {
        await db.deleteFrom('addresses').where('user_id', '=', userId).execute()
      },
    },
    mobileNumbers: ownedRecordRepository(db, mobileNumbers),
    devices: userDeviceRepository(db),
    socialLinks: ownedRecordRepository(db, socialLinks),
    lookups: profileLookups(db),
  }
}
