import type { ErrorRows } from '../platform/error-spec'

/** The accounts context's rows of the error table (platform/domain-errors.ts). */
export const accountsErrors = {
  InvalidCredentials: {
    status: 401,
    code: 'invalid_credentials',
    title: 'Invalid credentials',
    detail: () => 'The email or the password is wrong.',
  },
  Unauthenticated: { status: 401, code: 'unauthenticated', title: 'Unauthenticated' },
} satisfies ErrorRows
