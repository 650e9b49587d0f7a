import type { RoleId } from '../shared'

/** The user a personal record belongs to; live users only. */
export type Owner = { id: number; roleId: RoleId; country: string }

export const GENDERS = ['male', 'female'] as const
export type Gender = (typeof GENDERS)[number]

export type PersonalDetails = {
  id: number
  userId: number
  dateOfBirth: string | null
  gender: Gender | null
  /** The languages the user speaks (ids of GET /api/v1/languages), ascending. */
  languageIds: number[]
}

/** SPEC "Limits": a profile bio is at most 500 characters. */
export const BIO_MAX_CHARS = 500
export const TUTORING_EXPERIENCE_MAX_MONTHS = 1200

export type UserProfile = {
  id: number
  userId: number
  bio: string | null
  teacherReferenceNumber: string | null
  tutoringExperienceMonths: number | null
  isVisible: boolean
  hasPicture: boolean
  hasVideo: boolean
}

export type EducationFields = {
  institution: string
  qualification: string
  subject: string | null
  startYear: number
  endYear: number | null
}
export type Education = EducationFields & { id: number; userId: number }

export type ProfessionFields = {
  title: string
  organisation: string | null
  startDate: string
  endDate: string | null
  description: string | null
}
export type Profession = ProfessionFields & { id: number; userId: number }

export type ChildFields = { firstname: string; lastname: string; dateOfBirth: string | null }
/** `userId` is the parent's id. */
export type Child = ChildFields & { id: number; userId: number }

export type AddressFields = { line1: string; line2: string | null; city: string; postcode: string; country: string }
export type UserAddress = AddressFields & { id: number; userId: number }

export type MobileNumber = { id: number; userId: number; number: string }

export const DEVICE_PLATFORMS = ['ios', 'android', 'web'] as const
export type DevicePlatform = (typeof DEVICE_PLATFORMS)[number]
export type UserDevice = {
  id: number
  userId: number
  platform: DevicePlatform
  pushToken: string
  createdAt: Date
  updatedAt: Date
}

export const SOCIAL_PLATFORMS = ['website', 'linkedin', 'twitter', 'facebook', 'instagram', 'youtube', 'tiktok', 'other'] as const
export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number]
export type SocialLinkFields = { platform: SocialPlatform; url: string }
export type SocialLink = SocialLinkFields & { id: number; userId: number }
