import type { FieldErrors } from '@tutoring/domain/shared'
import type { z } from 'zod'
import { problems } from './problem'

/** zod issues as CONTRACT §2 field errors: `address.postcode`, `child_ids.0`. */
export function fieldErrorsFrom(error: z.ZodError, input?: unknown): FieldErrors {
  const errors: FieldErrors = {}
  const add = (path: PropertyKey[], message: string) => {
    const key = path.length > 0 ? path.map(String).join('.') : 'body'
    ;(errors[key] ??= []).push(message)
  }
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add([...issue.path, key], 'is not an accepted field')
    } else {
      add(issue.path, messageOf(issue, input))
    }
  }
  return errors
}

/** zod 4 leaves `issue.input` out unless asked, so whether a field was sent is read from the input itself. */
function messageOf(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.code !== 'custom' && valueAt(input, issue.path) === undefined) return 'is required'
  return issue.message
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined
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
