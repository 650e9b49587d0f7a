export {
  BIO_MAX_CHARS,
  DEVICE_PLATFORMS,
  GENDERS,
  SOCIAL_PLATFORMS,
  TUTORING_EXPERIENCE_MAX_MONTHS,
  type AddressFields,
  type Child,
  type ChildFields,
  type DevicePlatform,
  type Education,
  type EducationFields,
  type Gender,
  type MobileNumber,
  type PersonalDetails,
  type Profession,
  type ProfessionFields,
  type SocialLink,
  type SocialLinkFields,
  type SocialPlatform,
  type UserAddress,
  type UserDevice,
  type UserProfile,
} from './records'
export * from './ports'
export * from './errors'
export { CUSTOMER_SYNC_TOPIC, type CustomerSyncEvent } from './customer-sync'
export { listPersonalDetails } from './list-personal-details'
export { updatePersonalDetails, type PersonalDetailsUpdate } from './update-personal-details'
export { listProfiles } from './list-profiles'
export { updateProfile } from './update-profile'
export { listEducation } from './list-education'
export { addEducation } from './add-education'
export { updateEducation } from './update-education'
export { removeEducation } from './remove-education'
export { listProfessions } from './list-professions'
export { addProfession } from './add-profession'
export { updateProfession } from './update-profession'
export { removeProfession } from './remove-profession'
export { listChildren } from './list-children'
export { addChild } from './add-child'
export { updateChild } from './update-child'
export { removeChild } from './remove-child'
export { listAddresses } from './list-addresses'
export { addAddress, type AddressInput } from './add-address'
export { updateAddress } from './update-address'
export { removeAddress } from './remove-address'
export { listMobileNumbers } from './list-mobile-numbers'
export { addMobileNumber } from './add-mobile-number'
export { updateMobileNumber } from './update-mobile-number'
export { removeMobileNumber } from './remove-mobile-number'
export { listUserDevices } from './list-user-devices'
export { registerUserDevice } from './register-user-device'
export { updateUserDevice } from './update-user-device'
export { removeUserDevice } from './remove-user-device'
export { listSocialLinks } from './list-social-links'
export { addSocialLink } from './add-social-link'
export { updateSocialLink } from './update-social-link'
export { removeSocialLink } from './remove-social-link'
