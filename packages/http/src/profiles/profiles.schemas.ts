import { z } from '@hono/zod-openapi'
import { parseWebPushSubscription } from '@tutoring/domain/profiles'
import {
  BIO_MAX_CHARS,
  DEVICE_PLATFORMS,
  GENDERS,
  SOCIAL_PLATFORMS,
  TUTORING_EXPERIENCE_MAX_MONTHS,
  type Child,
  type Education,
  type EducationFields,
  type MobileNumber,
  type PersonalDetails,
  type Profession,
  type ProfessionFields,
  type SocialLink,
  type UserAddress,
  type UserDevice,
  type UserProfile,
} from '@tutoring/domain/profiles'
import { calendarDate, countryCode, mobileField, pastDate, personName, postcodeField } from '../platform/fields'

const id = z.number().int()
/** The bound is on what the client sent, so a value the document refuses is refused before trimming. */
const text = (max: number) => z.string().max(max).trim().min(1)
/** Optional text a client clears with null; a blank clears it too. */
const clearableText = (max: number) =>
  z
    .string()
    .max(max)
    .trim()
    .transform((s) => (s === '' ? null : s))
    .nullable()
    .optional()
const year = z.number().int().min(1900).max(2100)
/** Calendar dates from 1900 on: the database has no year 0, and nobody here was born before. */
const EARLIEST = '1900-01-01'
const modernDate = calendarDate.refine((s) => s >= EARLIEST, 'must be 1900-01-01 or later')
const modernPastDate = pastDate.refine((s) => s >= EARLIEST, 'must be 1900-01-01 or later')
const referenceId = z.number().int().positive().max(2_147_483_647)

/** Keys a client left out stay out, so a PUT changes only what it names. */
export const definedOnly = <T extends object>(body: T): T =>
  Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as T

// Personal details

export const PersonalDetailsBody = z
  .strictObject({
    date_of_birth: modernPastDate.nullable().optional(),
    gender: z.enum(GENDERS).nullable().optional(),
    language_ids: z
      .array(referenceId)
      .max(50)
      .optional()
      .openapi({ description: 'Replaces the languages the user speaks (ids of GET /api/v1/languages); [] clears them.' }),
  })
  .openapi('PersonalDetailsRequest')

export const PersonalDetailsSchema = z
  .object({
    id,
    user_id: id,
    date_of_birth: z.string().nullable().openapi({ format: 'date' }),
    gender: z.enum(GENDERS).nullable(),
    language_ids: z.array(id).openapi({ description: 'The languages the user speaks, ascending.' }),
  })
  .openapi('PersonalDetails')

export const presentPersonalDetails = (d: PersonalDetails): z.infer<typeof PersonalDetailsSchema> => ({
  id: d.id,
  user_id: d.userId,
  date_of_birth: d.dateOfBirth,
  gender: d.gender,
  language_ids: d.languageIds,
})

// Profiles

const bio = z
  .string()
  .trim()
  .refine((s) => [...s].length <= BIO_MAX_CHARS, `must be at most ${BIO_MAX_CHARS} characters`)
  .transform((s) => (s === '' ? null : s))

export const ProfileBody = z
  .strictObject({
    bio: bio.nullable().optional().openapi({ description: `At most ${BIO_MAX_CHARS} characters; null or blank clears it.` }),
    teacher_reference_number: clearableText(50),
    tutoring_experience_months: z.number().int().min(0).max(TUTORING_EXPERIENCE_MAX_MONTHS).nullable().optional(),
    is_visible: z.boolean().optional(),
  })
  .openapi('ProfileRequest')

export const ProfileSchema = z
  .object({
    id,
    user_id: id,
    bio: z.string().nullable(),
    teacher_reference_number: z.string().nullable(),
    tutoring_experience_months: z.number().int().nullable(),
    is_visible: z.boolean(),
    profile_picture_url: z.string().nullable().openapi({ description: 'Absolute URL of /api/resources/profile-image/{user_id}; null without a picture.' }),
    profile_video_url: z.string().nullable().openapi({ description: 'Absolute URL of /api/resources/profile-video/{user_id}; null without a video.' }),
  })
  .openapi('Profile')

export const presentProfile =
  (baseUrl: string) =>
  (p: UserProfile): z.infer<typeof ProfileSchema> => ({
    id: p.id,
    user_id: p.userId,
    bio: p.bio,
    teacher_reference_number: p.teacherReferenceNumber,
    tutoring_experience_months: p.tutoringExperienceMonths,
    is_visible: p.isVisible,
    profile_picture_url: p.hasPicture ? `${baseUrl}/api/resources/profile-image/${p.userId}` : null,
    profile_video_url: p.hasVideo ? `${baseUrl}/api/resources/profile-video/${p.userId}` : null,
  })

// Education

export const EducationBody = z
  .strictObject({
    institution: text(255).openapi({ example: 'University of Leeds' }),
    qualification: text(255).openapi({ example: 'BSc' }),
    subject: clearableText(255).openapi({ example: 'Mathematics' }),
    start_year: year.openapi({ example: 2012 }),
    end_year: year.nullable().optional().openapi({ description: 'Null or absent: still studying. Not before start_year.', example: 2015 }),
  })
  .openapi('EducationRequest')
export const EducationPatchBody = EducationBody.partial().openapi('EducationUpdateRequest')

export const EducationSchema = z
  .object({
    id,
    user_id: id,
    institution: z.string(),
    qualification: z.string(),
    subject: z.string().nullable(),
    start_year: z.number().int(),
    end_year: z.number().int().nullable(),
  })
  .openapi('Education')

export const presentEducation = (e: Education): z.infer<typeof EducationSchema> => ({
  id: e.id,
  user_id: e.userId,
  institution: e.institution,
  qualification: e.qualification,
  subject: e.subject,
  start_year: e.startYear,
  end_year: e.endYear,
})

export const newEducation = (b: z.infer<typeof EducationBody>): EducationFields => ({
  institution: b.institution,
  qualification: b.qualification,
  subject: b.subject ?? null,
  startYear: b.start_year,
  endYear: b.end_year ?? null,
})

export const educationFields = (b: Partial<z.infer<typeof EducationBody>>) =>
  definedOnly({
    institution: b.institution,
    qualification: b.qualification,
    subject: b.subject,
    startYear: b.start_year,
    endYear: b.end_year,
  })

// Professions

export const ProfessionBody = z
  .strictObject({
    title: text(255).openapi({ example: 'Head of Mathematics' }),
    organisation: clearableText(255).openapi({ example: 'Leeds Grammar School' }),
    start_date: modernPastDate,
    end_date: modernDate.nullable().optional().openapi({ description: 'Null or absent: current. Not before start_date.' }),
    description: clearableText(1000),
  })
  .openapi('ProfessionRequest')
export const ProfessionPatchBody = ProfessionBody.partial().openapi('ProfessionUpdateRequest')

export const ProfessionSchema = z
  .object({
    id,
    user_id: id,
    title: z.string(),
    organisation: z.string().nullable(),
    start_date: z.string().openapi({ format: 'date' }),
    end_date: z.string().nullable().openapi({ format: 'date' }),
    description: z.string().nullable(),
  })
  .openapi('Profession')

export const presentProfession = (p: Profession): z.infer<typeof ProfessionSchema> => ({
  id: p.id,
  user_id: p.userId,
  title: p.title,
  organisation: p.organisation,
  start_date: p.startDate,
  end_date: p.endDate,
  description: p.description,
})

export const newProfession = (b: z.infer<typeof ProfessionBody>): ProfessionFields => ({
  title: b.title,
  organisation: b.organisation ?? null,
  startDate: b.start_date,
  endDate: b.end_date ?? null,
  description: b.description ?? null,
})

export const professionFields = (b: Partial<z.infer<typeof ProfessionBody>>) =>
  definedOnly({
    title: b.title,
    organisation: b.organisation,
    startDate: b.start_date,
    endDate: b.end_date,
    description: b.description,
  })

// Children

export const ChildBody = z
  .strictObject({ firstname: personName, lastname: personName, date_of_birth: modernPastDate.nullable().optional() })
  .openapi('ChildRequest')
export const ChildPatchBody = ChildBody.partial().openapi('ChildUpdateRequest')

export const ChildSchema = z
  .object({
    id,
    parent_id: id,
    firstname: z.string(),
    lastname: z.string(),
    date_of_birth: z.string().nullable().openapi({ format: 'date' }),
  })
  .openapi('Child')

export const presentChild = (c: Child): z.infer<typeof ChildSchema> => ({
  id: c.id,
  parent_id: c.userId,
  firstname: c.firstname,
  lastname: c.lastname,
  date_of_birth: c.dateOfBirth,
})

export const childFields = (b: Partial<z.infer<typeof ChildBody>>) =>
  definedOnly({ firstname: b.firstname, lastname: b.lastname, dateOfBirth: b.date_of_birth })

// Addresses

export const AddressBody = z
  .strictObject({
    line1: text(255),
    line2: clearableText(255),
    city: text(100),
    postcode: postcodeField,
    country: countryCode.optional().openapi({ description: "ISO 3166-1 alpha-2; defaults to the user's country." }),
  })
  .openapi('AddressRequest')
export const AddressPatchBody = AddressBody.partial().openapi('AddressUpdateRequest')

export const AddressSchema = z
  .object({
    id,
    user_id: id,
    line1: z.string(),
    line2: z.string().nullable(),
    city: z.string(),
    postcode: z.string(),
    country: z.string(),
  })
  .openapi('Address')

export const presentAddress = (a: UserAddress): z.infer<typeof AddressSchema> => ({
  id: a.id,
  user_id: a.userId,
  line1: a.line1,
  line2: a.line2,
  city: a.city,
  postcode: a.postcode,
  country: a.country,
})

// Mobile numbers

export const MobileNumberBody = z.strictObject({ number: mobileField }).openapi('MobileNumberRequest')
export const MobileNumberSchema = z.object({ id, user_id: id, number: z.string() }).openapi('MobileNumber')
export const presentMobileNumber = (m: MobileNumber): z.infer<typeof MobileNumberSchema> => ({
  id: m.id,
  user_id: m.userId,
  number: m.number,
})

// User devices

const pushToken = text(4096).openapi({
  description:
    'The push provider token of one app install: the FCM registration token for `ios` and `android`; for `web`, ' +
    'the browser\'s PushSubscription as JSON (`JSON.stringify(subscription)`: `{endpoint, keys: {p256dh, auth}}`, an https endpoint), ' +
    'which Web Push needs whole to encrypt and address each push.',
})
const deviceFields = { platform: z.enum(DEVICE_PLATFORMS), push_token: pushToken }
/** A web device's token must be a subscription Web Push can use; other platforms' tokens are opaque. */
const webTokenIsSubscription = (body: { platform?: string; push_token?: string }, ctx: z.RefinementCtx) => {
  if (body.platform !== 'web' || body.push_token === undefined || parseWebPushSubscription(body.push_token)) return
  ctx.addIssue({ code: 'custom', path: ['push_token'], message: 'a web push_token is the JSON of a PushSubscription: {endpoint (https), keys: {p256dh, auth}}' })
}
export const UserDeviceBody = z.strictObject(deviceFields).superRefine(webTokenIsSubscription).openapi('UserDeviceRequest')
export const UserDevicePatchBody = z.strictObject(deviceFields).partial().superRefine(webTokenIsSubscription).openapi('UserDeviceUpdateRequest')

export const UserDeviceSchema = z
  .object({
    id,
    user_id: id,
    platform: z.enum(DEVICE_PLATFORMS),
    push_token: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('UserDevice')

export const presentUserDevice = (d: UserDevice): z.infer<typeof UserDeviceSchema> => ({
  id: d.id,
  user_id: d.userId,
  platform: d.platform,
  push_token: d.pushToken,
  created_at: d.createdAt.toISOString(),
  updated_at: d.updatedAt.toISOString(),
})

// Social links

const httpsUrl = z
  .string()
  .max(2048)
  .trim()
  .pipe(z.url({ protocol: /^https$/, hostname: z.regexes.domain, error: 'must be an https:// URL' }))
  // The parser's form (lower-case scheme and host), which is what the column's check expects.
  .transform((s) => new URL(s).href)
  .openapi({ format: 'uri', description: 'https:// only' })

export const SocialLinkBody = z
  .strictObject({ platform: z.enum(SOCIAL_PLATFORMS), url: httpsUrl.openapi({ example: 'https://www.linkedin.com/in/ada' }) })
  .openapi('SocialLinkRequest')
export const SocialLinkPatchBody = SocialLinkBody.partial().openapi('SocialLinkUpdateRequest')

export const SocialLinkSchema = z
  .object({ id, user_id: id, platform: z.enum(SOCIAL_PLATFORMS), url: z.string() })
  .openapi('SocialLink')

export const presentSocialLink = (l: SocialLink): z.infer<typeof SocialLinkSchema> => ({
  id: l.id,
  user_id: l.userId,
  platform: l.platform,
  url: l.url,
})
