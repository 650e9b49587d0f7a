export { getPublicTutorProfile, type PublicTutorProfile } from './get-public-tutor-profile'
export { getTutorDetails, type TutorDetails } from './get-tutor-details'
export { getTutorStatus, type TutorStatus } from './get-tutor-status'
export type { TutorsDeps, TutorsRepos } from './ports'
export { criterionMean, hoursTaught, overallRating, type ReviewTotals, type TaughtLesson } from './teaching-record'
export {
  describeExperience,
  TUTOR_VERIFICATION_KINDS,
  type TutorAddress,
  type TutorDirectory,
  type TutorLanguage,
  type TutorMobileNumber,
  type TutorPersonalDetails,
  type TutorProfileFacts,
  type TutorSubscription,
  type TutorVerification,
  type TutorVerificationKind,
  type TutorVerifications,
  type TutorVerificationStatus,
} from './tutor-facts'
