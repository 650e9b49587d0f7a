import { z } from '@hono/zod-openapi'
import { roleName, type User } from '@tutoring/domain'
import { withinSupportedYears } from '../platform/dates'

/** A real calendar day, `YYYY-MM-DD`, between 1900 and 2100 (the database has no year 0). */
export const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2026-12-01')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`)
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s)
  }, 'is not a real date')
  .refine(...withinSupportedYears)
  .openapi({ example: '2001-04-17', format: 'date' })

const todayUtc = () => new Date().toISOString().slice(0, 10)
export const pastDate = calendarDate.refine((s) => s <= todayUtc(), 'must not be in the future')

/**
 * A person's name: no control or invisible formatting characters (Unicode Cc and Cf: bidi
 * overrides, zero-width spaces and joiners), which would let `Ad\u202emin` display as
 * someone else's name and end up in a username.
 */
export const personName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((s) => !/[\p{Cc}\p{Cf}]/u.test(s), 'must not contain control or invisible formatting characters (bidi or zero-width)')
export const emailField = z.string().trim().toLowerCase().pipe(z.email().max(254)).openapi({ example: 'ada@example.com' })
/** Passwords are never trimmed (SPEC): a blank is as good a character as any, but not blanks alone. */
export const passwordField = z
  .string()
  .min(8, 'must be at least 8 characters')
  .max(128, 'must be at most 128 characters')
  .refine((s) => s.trim().length > 0, 'must not be only spaces')
export const countryCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 code like GB')
  .transform((s) => s.toUpperCase())
  .openapi({ example: 'GB' })
export const mobileField = z
  .string()
  .trim()
  .regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 number like +447700900123')
  .openapi({ example: '+447700900123' })
export const postcodeField = z
  .string()
  .trim()
  .min(2)
  .max(10)
  .regex(/^[A-Za-z0-9 ]+$/, 'must be letters, digits and spaces')
  .transform((s) => s.toUpperCase().replace(/\s+/g, ' '))

export const AddressInput = z.strictObject({
  line1: z.string().trim().min(1).max(255),
  line2: z.string().trim().max(255).nullable().optional(),
  city: z.string().trim().min(1).max(100),
  postcode: postcodeField,
  country: countryCode.optional(),
})

export const RegisterBody = z
  .strictObject({
    email: emailField,
    password: passwordField,
    firstname: personName,
    lastname: personName,
    role: z.enum(['student', 'parent', 'tutor']),
    country: countryCode,
    date_of_birth: pastDate.nullable().optional(),
    profile_picture: z.uuid().nullable().optional(),
    address: AddressInput.nullable().optional(),
    mobile: mobileField.nullable().optional(),
    dbs: z
      .strictObject({ certificate_number: z.string().trim().regex(/^\d{12}$/, 'must be the 12 digits of the certificate'), issue_date: pastDate })
      .nullable()
      .optional(),
    card: z.strictObject({ payment_method: z.string().trim().min(3).max(255) }).nullable().optional(),
  })
  .openapi('RegisterRequest')

export const LoginBody = z
  .strictObject({ email: z.string().trim().min(1).max(254), password: z.string().min(1).max(1024) })
  .openapi('LoginRequest')
export const ForgotBody = z.strictObject({ email: emailField }).openapi('ForgotPasswordRequest')
export const ResetBody = z
  .strictObject({ email: emailField, token: z.string().min(1).max(512), password: passwordField })
  .openapi('ResetPasswordRequest')

/** CONTRACT §5: the public face of a last name, "Smith" -> "S.". */
export const abbreviateLastname = (lastname: string): string => {
  const initial = [...lastname.trim()][0]
  return initial ? `${initial.toUpperCase()}.` : ''
}

export const UserSchema = z
  .object({
    id: z.number().int(),
    email: z.string(),
    username: z.string(),
    firstname: z.string(),
    lastname: z.string(),
    role_id: z.number().int(),
    role: z.enum(['student', 'parent', 'tutor', 'internal']),
    country: z.string(),
    email_verified_at: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('User')

export const SessionSchema = z
  .object({
    data: z.object({
      token: z.string(),
      token_type: z.literal('Bearer'),
      expires_in: z.number().int(),
      user: UserSchema,
    }),
  })
  .openapi('Session')

export const StatusSchema = z.object({ data: z.object({ status: z.string(), message: z.string() }) })

export function presentUser(user: User): z.infer<typeof UserSchema> {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    firstname: user.firstname,
    lastname: user.lastname,
    role_id: user.roleId,
    role: roleName(user.roleId)!,
    country: user.country,
    email_verified_at: user.emailVerifiedAt?.toISOString() ?? null,
    created_at: user.createdAt.toISOString(),
  }
}
