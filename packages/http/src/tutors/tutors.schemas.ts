import { z } from '@hono/zod-openapi'
import type { User } from '@tutoring/domain/accounts'
import { roleName } from '@tutoring/domain/shared'
import {
  type PublicTutorProfile,
  type PublicUser,
  type TutorDetails,
  type TutorProfileFacts,
  type TutorStatus,
  type TutorVerifications,
} from '@tutoring/domain/tutors'
import { abbreviateLastname, describeExperience, hoursFromMinutes } from '../platform/fields'
import type { MediaUrls } from '../platform/media-urls'
import { UserSchema, presentUser } from '../accounts'
import { DayAvailabilitySchema, HolidaySchema, LocationSchema, presentDayAvailability, presentHoliday, presentLocation } from '../schedule'
import { AvailableTeachSchema, TeachSchema, presentAvailableTeach, presentTeach } from '../teaching'
import { SubscriptionStatusSchema } from '../subscriptions'
import { ELIGIBILITY_REASONS } from '@tutoring/domain/search'

const status = z
  .enum(['NONE', 'PENDING', 'PASS', 'FAIL', 'INTERNAL_REVIEW'])
  .openapi('TutorVerificationStatus', { description: "A verification's status as its tutor's views show it: NONE while nothing was submitted." })

export const TutorStatusSchema = z
  .object({
    eligible: z.boolean(),
    reasons: z.array(z.enum(ELIGIBILITY_REASONS).openapi('EligibilityReason')).openapi({
      description:
        "What keeps the tutor out of search today, as the search eligibility rules' stable codes, in rule order: profile_picture_missing, profile_video_missing, bio_missing, address_missing, mobile_missing, identity_not_passed, dbs_not_passed, qualification_not_passed, not_visible, no_availability (no weekly schedule window), on_holiday (today, London), subscription_inactive (no subscription trialing or active: rule 8, CONTRACT §14; such a tutor can not be booked either). Empty when eligible.",
    }),
    verifications: z.object({
      identity: z.object({ status, reference: z.string().nullable() }),
      dbs: z.object({ status }),
      qualification: z.object({ status }),
    }),
  })
  .openapi('TutorStatus')

export const presentTutorStatus = (s: TutorStatus): z.infer<typeof TutorStatusSchema> => ({
  eligible: s.eligible,
  reasons: s.reasons,
  verifications: {
    identity: { status: s.verifications.identity.status, reference: s.verifications.identity.reference },
    dbs: { status: s.verifications.dbs.status },
    qualification: { status: s.verifications.qualification.status },
  },
})

const Language = z.object({ id: z.number().int(), code: z.string(), name: z.string() })

const EducationEntry = z.object({
  institution: z.string(),
  qualification: z.string(),
  subject: z.string().nullable(),
  start_year: z.number().int(),
  end_year: z.number().int().nullable().openapi({ description: 'Null while still studying.' }),
})

export const PublicTutorProfileSchema = z
  .object({
    id: z.number().int(),
    username: z.string(),
    firstname: z.string(),
    lastname: z.string().openapi({ description: 'Initial and a full stop: "L."' }),
    joined_at: z.string(),
    profile_picture_url: z.string().nullable(),
    profile_video_url: z.string().nullable(),
    bio: z.string().nullable(),
    verification: z
      .object({ identity: z.boolean(), dbs: z.boolean(), qualification: z.boolean() })
      .openapi({ description: 'Which checks passed; nothing more is shown publicly.' }),
    verification_status: z.enum(['verified', 'unverified']).openapi({ description: 'verified when identity, DBS and qualification all passed.' }),
    is_visible: z.boolean(),
    location: z
      .object({
        postcode_district: z.string(),
        lat: z.number().openapi({ description: 'Rounded to two places (about a kilometre).' }),
        lng: z.number().openapi({ description: 'Rounded to two places.' }),
        travel_distance_miles: z.number(),
      })
      .nullable()
      .openapi({ description: "The postcode's outward code (e.g. SW1A) and coarse coordinates; never the address or exact coordinates. Null until the tutor sets a location." }),
    education: z.array(EducationEntry).openapi({ description: 'The tutor\'s education records (/api/v1/education), oldest first.' }),
    languages: z.array(Language),
    tutoring_experience: z.string().nullable().openapi({ example: '3 years 2 months' }),
    tutoring_experience_months: z.number().int().nullable(),
    teaching_experience: z.object({
      qualified_teacher: z.boolean().openapi({ description: 'A teacher reference number is on file (the number itself is not shown).' }),
      professions: z
        .array(z.object({ title: z.string(), organisation: z.string().nullable(), start_date: z.string(), end_date: z.string().nullable() }))
        .openapi({ description: 'The tutor\'s professions (/api/v1/professions), most recent first.' }),
    }),
    overall_rating: z.number().nullable().openapi({ description: "Mean of the tutor's reviews (each review's mean of its three criteria), two places; null with no review. Kept current as reviews are written." }),
    review_count: z.number().int(),
    hours_taught: z.number().openapi({ description: 'Hours of lessons that were not cancelled and have finished, two places.' }),
    social_links: z.array(z.object({ platform: z.string(), url: z.string() })).openapi({ description: 'The tutor\'s social links (/api/social-links).' }),
    teaches: z.array(AvailableTeachSchema).openapi({ description: 'Enabled teaches with their titles and rates.' }),
  })
  .openapi('PublicTutorProfile')

export function presentPublicTutorProfile(p: PublicTutorProfile, urls: MediaUrls): z.infer<typeof PublicTutorProfileSchema> {
  const { tutor, profile } = p
  return {
    id: tutor.id,
    username: tutor.username,
    firstname: tutor.firstname,
    lastname: abbreviateLastname(tutor.lastname),
    joined_at: tutor.createdAt.toISOString(),
    profile_picture_url: profile.hasPicture ? urls.profileImage(tutor.id) : null,
    profile_video_url: profile.hasVideo ? urls.profileVideo(tutor.id) : null,
    bio: profile.bio,
    verification: p.verificationsPassed,
    verification_status: p.verified ? 'verified' : 'unverified',
    is_visible: profile.isVisible,
    location: p.location && {
      postcode_district: p.location.outcode,
      lat: p.location.lat,
      lng: p.location.lng,
      travel_distance_miles: p.location.travelDistanceMiles,
    },
    education: p.education.map((e) => ({ institution: e.institution, qualification: e.qualification, subject: e.subject, start_year: e.startYear, end_year: e.endYear })),
    languages: p.languages,
    tutoring_experience: describeExperience(profile.tutoringExperienceMonths),
    tutoring_experience_months: profile.tutoringExperienceMonths,
    teaching_experience: {
      qualified_teacher: (profile.teacherReferenceNumber ?? '').trim().length > 0,
      professions: p.professions.map((x) => ({ title: x.title, organisation: x.organisation, start_date: x.startDate, end_date: x.endDate })),
    },
    overall_rating: p.standing.overallRating,
    review_count: p.standing.reviewCount,
    hours_taught: hoursFromMinutes(p.minutesTaught),
    social_links: p.socialLinks.map((l) => ({ platform: l.platform, url: l.url })),
    teaches: p.teaches.map(presentAvailableTeach),
  }
}

export const PublicUserSchema = z
  .object({
    id: z.number().int(),
    username: z.string(),
    firstname: z.string(),
    lastname: z.string().openapi({ description: 'Abbreviated to the initial and a full stop' }),
    role_id: z.number().int(),
    role: z.string(),
    joined_at: z.string(),
  })
  .openapi('PublicUser')

const presentPublicUser = (user: User): z.infer<typeof PublicUserSchema> => ({
  id: user.id,
  username: user.username,
  firstname: user.firstname,
  lastname: abbreviateLastname(user.lastname),
  role_id: user.roleId,
  role: roleName(user.roleId)!,
  joined_at: user.createdAt.toISOString(),
})

export const PublicTutorUserSchema = PublicTutorProfileSchema.extend({ role_id: z.number().int(), role: z.string() }).openapi('PublicTutorUser')

export const presentAnyPublicUser = (found: PublicUser, urls: MediaUrls): z.infer<typeof PublicUserSchema> | z.infer<typeof PublicTutorUserSchema> =>
  found.kind === 'tutor'
    ? { ...presentPublicTutorProfile(found.profile, urls), role_id: found.profile.tutor.roleId, role: roleName(found.profile.tutor.roleId)! }
    : presentPublicUser(found.user)

const VerificationSchema = z.object({ status, reference: z.string().nullable() })

const ProfileSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  bio: z.string().nullable(),
  teacher_reference_number: z.string().nullable(),
  tutoring_experience_months: z.number().int().nullable(),
  is_visible: z.boolean(),
  time_zone: z.string(),
  profile_picture_url: z.string().nullable(),
  profile_video_url: z.string().nullable(),
})

export const TutorDetailsSchema = z
  .object({
    user: UserSchema,
    personal_details: z.object({ id: z.number().int(), date_of_birth: z.string().nullable(), gender: z.string().nullable() }).nullable(),
    addresses: z.array(
      z.object({ id: z.number().int(), line1: z.string(), line2: z.string().nullable(), city: z.string(), postcode: z.string(), country: z.string() }),
    ),
    mobile_numbers: z.array(z.object({ id: z.number().int(), number: z.string() })),
    profile: ProfileSchema.nullable(),
    languages: z.array(Language),
    teaches: z.array(TeachSchema),
    day_availabilities: z.array(DayAvailabilitySchema),
    location: LocationSchema.nullable(),
    holidays: z.array(HolidaySchema),
    verifications: z.object({ identity: VerificationSchema, dbs: VerificationSchema, qualification: VerificationSchema }),
    subscription: z
      .object({ id: z.number().int(), status: SubscriptionStatusSchema, trial_ends_at: z.string().nullable(), current_period_end: z.string().nullable() })
      .nullable(),
  })
  .openapi('TutorDetails')

const presentProfile = (userId: number, profile: TutorProfileFacts, urls: MediaUrls): z.infer<typeof ProfileSchema> => ({
  id: profile.id,
  user_id: userId,
  bio: profile.bio,
  teacher_reference_number: profile.teacherReferenceNumber,
  tutoring_experience_months: profile.tutoringExperienceMonths,
  is_visible: profile.isVisible,
  time_zone: profile.timeZone,
  profile_picture_url: profile.hasPicture ? urls.profileImage(userId) : null,
  profile_video_url: profile.hasVideo ? urls.profileVideo(userId) : null,
})

const presentVerifications = (v: TutorVerifications) => ({
  identity: { ...v.identity },
  dbs: { ...v.dbs },
  qualification: { ...v.qualification },
})

export function presentTutorDetails(d: TutorDetails, urls: MediaUrls): z.infer<typeof TutorDetailsSchema> {
  return {
    user: presentUser(d.tutor),
    personal_details: d.personalDetails && {
      id: d.personalDetails.id,
      date_of_birth: d.personalDetails.dateOfBirth,
      gender: d.personalDetails.gender,
    },
    addresses: d.addresses,
    mobile_numbers: d.mobileNumbers,
    profile: d.profile && presentProfile(d.tutor.id, d.profile, urls),
    languages: d.languages,
    teaches: d.teaches.map(presentTeach),
    day_availabilities: d.schedule.map(presentDayAvailability),
    location: d.location && presentLocation(d.location),
    holidays: d.holidays.map(presentHoliday),
    verifications: presentVerifications(d.verifications),
    subscription: d.subscription && {
      id: d.subscription.id,
      status: d.subscription.status,
      trial_ends_at: d.subscription.trialEndsAt?.toISOString() ?? null,
      current_period_end: d.subscription.currentPeriodEnd?.toISOString() ?? null,
    },
  }
}
