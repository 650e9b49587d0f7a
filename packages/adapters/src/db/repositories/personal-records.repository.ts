import type { Kysely } from 'kysely'
import type { PersonalRecords } from '@tutoring/domain'
import type { Database } from '../database'
import { childRepository } from './child.repository'
import { educationRepository } from './education.repository'
import { mobileNumberRepository } from './mobile-number.repository'
import { personalDetailsRepository } from './personal-details.repository'
import { professionRepository } from './profession.repository'
import { ownerDirectory, profileLookups } from './profile-owners.repository'
import { socialLinkRepository } from './social-link.repository'
import { userAddressRepository } from './user-address.repository'
import { userDeviceRepository } from './user-device.repository'
import { userProfileRepository } from './user-profile.repository'

/** The profiles context's repositories, one key in the bag. */
export function personalRecords(db: Kysely<Database>): PersonalRecords {
  return {
    owners: ownerDirectory(db),
    personalDetails: personalDetailsRepository(db),
    profiles: userProfileRepository(db),
    education: educationRepository(db),
    professions: professionRepository(db),
    children: childRepository(db),
    addresses: userAddressRepository(db),
    mobileNumbers: mobileNumberRepository(db),
    devices: userDeviceRepository(db),
    socialLinks: socialLinkRepository(db),
    lookups: profileLookups(db),
  }
}
