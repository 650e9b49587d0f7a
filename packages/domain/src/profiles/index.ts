export { addAddress, type AddressInput } from './add-address'
export { addChild } from './add-child'
export { addEducation } from './add-education'
export { addMobileNumber } from './add-mobile-number'
export { addProfession } from './add-profession'
export { addSocialLink } from './add-social-link'
export { CUSTOMER_SYNC_TOPIC } from './customer-sync'
export type { ProfilesError } from './errors'
export { listAddresses } from './list-addresses'
export { listChildren } from './list-children'
export { listEducation } from './list-education'
export { listMobileNumbers } from './list-mobile-numbers'
export { listPersonalDetails } from './list-personal-details'
export { listProfessions } from './list-professions'
export { listProfiles } from './list-profiles'
export { listSocialLinks } from './list-social-links'
export { listUserDevices } from './list-user-devices'
export type {
  MobileNumberRepository,
  OwnedRecords,
  OwnerDirectory,
  PersonalDetailsPatch,
  PersonalDetailsRepository,
  PersonalRecords,
  ProfileLookups,
  ProfilePatch,
  ProfilesDeps,
  ProfilesRepos,
  UserAddressRepository,
  UserDeviceRepository,
  UserProfileRepository,
} from './ports'
export {
  type AddressFields,
  BIO_MAX_CHARS,
  type Child,
  type ChildFields,
  DEVICE_PLATFORMS,
  type DevicePlatform,
  type Education,
  type EducationFields,
  type Gender,
  GENDERS,
  type MobileNumber,
  type Owner,
  type PersonalDetails,
  type Profession,
  type ProfessionFields,
  SOCIAL_PLATFORMS,
  type SocialLink,
  type SocialLinkFields,
  type SocialPlatform,
  TUTORING_EXPERIENCE_MAX_MONTHS,
  type UserAddress,
  type UserDevice,
  type UserProfile,
} from './records'
export { registerUserDevice } from './register-user-device'
export { removeAddress } from './remove-address'
export { removeChild } from './remove-child'
export { removeEducation } from './remove-education'
export { removeMobileNumber } from './remove-mobile-number'
export { removeProfession } from './remove-profession'
export { removeSocialLink } from './remove-social-link'
export { removeUserDevice } from './remove-user-device'
export { updateAddress } from './update-address'
export { updateChild } from './update-child'
export { updateEducation } from './update-education'
export { updateMobileNumber } from './update-mobile-number'
export { type PersonalDetailsUpdate, updatePersonalDetails } from './update-personal-details'
export { updateProfession } from './update-profession'
export { updateProfile } from './update-profile'
export { updateSocialLink } from './update-social-link'
export { updateUserDevice } from './update-user-device'
export { parseWebPushSubscription } from './web-push-subscription'
