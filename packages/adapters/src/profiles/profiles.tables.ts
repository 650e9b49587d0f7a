import type { AddressesTable } from './addresses.table'
import type { ChildrenTable } from './children.table'
import type { EducationTable } from './education.table'
import type { MobileNumbersTable } from './mobile-numbers.table'
import type { PersonalDetailsTable } from './personal-details.table'
import type { ProfessionsTable } from './professions.table'
import type { ProfilesTable } from './profiles.table'
import type { SocialLinksTable } from './social-links.table'
import type { UserDevicesTable } from './user-devices.table'

/** The profiles context's tables, as Kysely sees them; `Database` joins every context's. */
export interface ProfilesTables {
  addresses: AddressesTable
  children: ChildrenTable
  education: EducationTable
  mobile_numbers: MobileNumbersTable
  personal_details: PersonalDetailsTable
  professions: ProfessionsTable
  profiles: ProfilesTable
  social_links: SocialLinksTable
  user_devices: UserDevicesTable
}
