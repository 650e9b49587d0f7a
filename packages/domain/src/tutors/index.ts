export { getPublicTutorProfile, type PublicTutorProfile } from './get-public-tutor-profile'
export { getPublicUser, type PublicUser } from './get-public-user'
export { getTutorDetails, type TutorDetails } from './get-tutor-details'
export { getTutorStatus, type TutorStatus } from './get-tutor-status'
export type { TutorsDeps, TutorsRepos } from './ports'
export {
  TUTOR_VERIFICATION_KINDS,
  type TutorAddress,
  type TutorDirectory,
  type TutorEducation,
  type TutorLanguage,
  type TutorMobileNumber,
  type TutorPersonalDetails,
  type TutorProfession,
  type TutorProfileFacts,
  type TutorReviewStanding,
  type TutorSocialLink,
  type TutorSubscription,
  type TutorVerification,
  type TutorVerificationKind,
  type TutorVerifications,
  type TutorVerificationStatus,
} from './tutor-facts'
