import { z } from '@hono/zod-openapi'
import type { SessionIssued, User } from '@tutoring/domain/accounts'
import { roleName } from '@tutoring/domain/shared'

export const emailField = z.string().trim().toLowerCase().pipe(z.email().max(254)).openapi({ example: 'ada@example.com' })
/** Passwords are never trimmed (SPEC): a blank is as good a character as any, but not blanks alone. */
export const passwordField = z
  .string()
  .min(8, 'must be at least 8 characters')
  .max(128, 'must be at most 128 characters')
  .refine((s) => s.trim().length > 0, 'must not be only spaces')

export const LoginBody = z
  .strictObject({ email: z.string().max(254).trim().min(1), password: z.string().min(1).max(1024) })
  .openapi('LoginRequest')
export const ForgotBody = z.strictObject({ email: emailField }).openapi('ForgotPasswordRequest')
export const ResetBody = z
  .strictObject({ email: emailField, token: z.string().min(1).max(512), password: passwordField })
  .openapi('ResetPasswordRequest')

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

export const presentSession = (s: SessionIssued): z.infer<typeof SessionSchema> => ({
  data: { token: s.token, token_type: 'Bearer' as const, expires_in: s.expiresIn, user: presentUser(s.user) },
})
