import type { FieldErrors } from '@tutoring/domain'
import type { z } from 'zod'
import { problems } from './problem'

/** zod issues as CONTRACT §2 field errors: `address.postcode`, `child_ids.0`. */
export function fieldErrorsFrom(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {}
  const add = (path: PropertyKey[], message: string) => {
    const key = path.length > 0 ? path.map(String).join('.') : 'body'
    ;(errors[key] ??= []).push(message)
  }
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add([...issue.path, key], 'is not an accepted field')
    } else {
      add(issue.path, messageOf(issue))
    }
  }
  return errors
}

function messageOf(issue: z.core.$ZodIssue): string {
  if (issue.input === undefined && issue.code !== 'custom') return 'is required'
  return issue.message
}

/**
 * The OpenAPIHono hook: a failed zod validation becomes one 422, except a malformed path
 * id, which names no record and so is a 404 like any other unknown record.
 */
export const validationHook = (result: { success: boolean; error?: unknown; target?: string }) => {
  if (result.success) return
  if (result.target === 'param') throw problems.notFound()
  throw problems.validation(fieldErrorsFrom(result.error as z.ZodError))
}
