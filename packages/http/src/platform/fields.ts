import { z } from '@hono/zod-openapi'
import { withinSupportedYears } from './dates'

// Fields and presenters of people and dates that several contexts' routes share.

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
  .max(100)
  .trim()
  .min(1)
  .refine((s) => !/[\p{Cc}\p{Cf}]/u.test(s), 'must not contain control or invisible formatting characters (bidi or zero-width)')
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
  .max(10)
  .trim()
  .min(2)
  .regex(/^[A-Za-z0-9 ]+$/, 'must be letters, digits and spaces')
  .transform((s) => s.toUpperCase().replace(/\s+/g, ' '))

/** CONTRACT §5: the public face of a last name, "Smith" -> "S.". */
export const abbreviateLastname = (lastname: string): string => {
  // The first code point, so a surrogate pair stays whole, without splitting the whole name.
  const initial = lastname.trim().codePointAt(0)
  return initial === undefined ? '' : `${String.fromCodePoint(initial).toUpperCase()}.`
}

// At module level: the build keeps function names (esbuild --keep-names), which renames a
// closure made inside a function on every call; search describes 15 tutors an answer.
const countOf = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`

/** "3 years 2 months" (CONTRACT §5); "1 year", "5 months", "0 months". */
export const describeExperience = (months: number | null): string | null => {
  if (months === null) return null
  const years = Math.floor(months / 12)
  const rest = months % 12
  if (years === 0) return countOf(rest, 'month')
  return rest === 0 ? countOf(years, 'year') : `${countOf(years, 'year')} ${countOf(rest, 'month')}`
}

/** Hours taught on the wire: the stored minutes in hours, to two places (20 minutes is 0.33). */
export const hoursFromMinutes = (minutes: number): number => Math.round((minutes / 60) * 100) / 100
