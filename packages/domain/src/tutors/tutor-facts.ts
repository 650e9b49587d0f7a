import type { User } from '../accounts'
import type { SubscriptionStatus } from '../subscriptions'

export const TUTOR_VERIFICATION_KINDS = ['identity', 'dbs', 'qualification'] as const
export type TutorVerificationKind = (typeof TUTOR_VERIFICATION_KINDS)[number]
/** NONE: nothing submitted yet (no record). */
export type TutorVerificationStatus = 'NONE' | 'PENDING' | 'PASS' | 'FAIL' | 'INTERNAL_REVIEW'
export type TutorVerification = { status: TutorVerificationStatus; reference: string | null }
export type TutorVerifications = Record<TutorVerificationKind, TutorVerification>

export type TutorProfileFacts = {
  id: number
  bio: string | null
  teacherReferenceNumber: string | null
  tutoringExperienceMonths: number | null
  isVisible: boolean
  timeZone: string
  hasPicture: boolean
  hasVideo: boolean
  createdAt: Date
}

export type TutorLanguage = { id: number; code: string; name: string }
export type TutorEducation = { institution: string; qualification: string; subject: string | null; startYear: number; endYear: number | null }
export type TutorProfession = { title: string; organisation: string | null; startDate: string; endDate: string | null }
export type TutorSocialLink = { platform: string; url: string }
/** The tutor's rating as the review use case stored it: no review, no rating. */
export type TutorReviewStanding = { reviewCount: number; overallRating: number | null }
export type TutorAddress = { id: number; line1: string; line2: string | null; city: string; postcode: string; country: string }
export type TutorMobileNumber = { id: number; number: string }
export type TutorPersonalDetails = { id: number; dateOfBirth: string | null; gender: 'male' | 'female' | null }
export type TutorSubscription = {
  id: number
  status: SubscriptionStatus
  trialEndsAt: Date | null
  currentPeriodEnd: Date | null
}

/** Reads about a tutor that other contexts write; each answers for a live tutor only. */
export interface TutorDirectory {
  /** A live user with the tutor role. */
  findTutor(id: number): Promise<User | undefined>
  profile(userId: number): Promise<TutorProfileFacts | undefined>
  verifications(userId: number): Promise<TutorVerifications>
  languages(userId: number): Promise<TutorLanguage[]>
  personalDetails(userId: number): Promise<TutorPersonalDetails | undefined>
  addresses(userId: number): Promise<TutorAddress[]>
  mobileNumbers(userId: number): Promise<TutorMobileNumber[]>
  subscription(userId: number): Promise<TutorSubscription | undefined>
  /** Oldest first (by start year), as a CV reads. */
  education(userId: number): Promise<TutorEducation[]>
  /** Most recent first (by start date). */
  professions(userId: number): Promise<TutorProfession[]>
  socialLinks(userId: number): Promise<TutorSocialLink[]>
  reviewStanding(userId: number): Promise<TutorReviewStanding>
  /** The tutor's hours taught, in minutes, as the booking context keeps them (0 before any). */
  minutesTaught(userId: number): Promise<number>
}
