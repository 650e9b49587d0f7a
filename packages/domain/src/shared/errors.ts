/**
 * Errors shared by every context. Each context adds its own tagged errors; HTTP maps every
 * `type` to a status and code in one table, so a new type must be added there too.
 */
export type FieldErrors = Record<string, string[]>

export type NotFound = { type: 'NotFound'; resource: string }
export type Forbidden = { type: 'Forbidden'; reason: string }
export type ValidationFailed = { type: 'ValidationFailed'; errors: FieldErrors }
export type InvalidStateTransition = {
  type: 'InvalidStateTransition'
  machine: string
  from: string
  trigger: string
}

export const notFound = (resource: string): NotFound => ({ type: 'NotFound', resource })
export const forbidden = (reason: string): Forbidden => ({ type: 'Forbidden', reason })
export const validationFailed = (errors: FieldErrors): ValidationFailed => ({
  type: 'ValidationFailed',
  errors,
})
export const fieldError = (field: string, message: string): ValidationFailed =>
  validationFailed({ [field]: [message] })
export const invalidStateTransition = (
  machine: string,
  from: string,
  trigger: string,
): InvalidStateTransition => ({ type: 'InvalidStateTransition', machine, from, trigger })
