import type { FieldErrors } from '@tutoring/domain/shared'
import type { Context } from 'hono'
import type { z } from 'zod'
import { problems } from './problem'

/**
 * zod issues as CONTRACT §2 field errors: `address.postcode`, `child_ids.0`. A field path is
 * the client's text (CONTRACT §15: JSON keys are data), so the messages gather in a Map: a
 * key like `constructor` or `__proto__` must not find Object.prototype's member.
 */
export function fieldErrorsFrom(error: z.ZodError, input?: unknown): FieldErrors {
  const errors = new Map<string, string[]>()
  const add = (path: PropertyKey[], message: string) => {
    const key = path.length > 0 ? path.map(String).join('.') : 'body'
    errors.set(key, [...(errors.get(key) ?? []), message])
  }
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add([...issue.path, key], 'is not an accepted field')
    } else {
      add(issue.path, messageOf(issue, input))
    }
  }
  return Object.fromEntries(errors)
}

/** zod 4 leaves `issue.input` out unless asked, so whether a field was sent is read from the input itself. */
function messageOf(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.code !== 'custom' && valueAt(input, issue.path) === undefined) return 'is required'
  return issue.message
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined
    value = (value as Record<PropertyKey, unknown>)[key]
  }
  return value
}

/**
 * The OpenAPIHono hook: a failed zod validation becomes one 422, except a malformed path
 * id, which names no record and so is a 404 like any other unknown record.
 */
export const validationHook = (result: { success: boolean; error?: unknown; target?: string; data?: unknown }) => {
  if (result.success) return
  if (result.target === 'param') throw problems.notFound()
  throw problems.validation(fieldErrorsFrom(result.error as z.ZodError, result.data))
}

/**
 * The query string of a route served outside `mount` (a wildcard path the document lists by
 * hand), held to its documented names as `mount` holds every other route's: one value per
 * name as a string, a repeated name as a list, anything unknown a 422 naming it.
 */
export function validQuery<S extends z.ZodObject>(schema: S, c: Context): z.infer<S> {
  const input = Object.fromEntries(Object.entries(c.req.queries()).map(([name, values]) => [name, values.length === 1 ? values[0] : values]))
  const parsed = schema.safeParse(input)
  if (!parsed.success) throw problems.validation(fieldErrorsFrom(parsed.error, input))
  return parsed.data
}
