import { z } from 'zod'
import { isIsoDate } from './calendar'
import { LESSON_TYPES } from './lesson-types'

/**
 * The pure functions other teams call (availability, search eligibility, prices) check their
 * input against the exported zod schemas, so a caller the types do not reach (plain
 * JavaScript, data from a file) gets this error, not a silent empty answer.
 */
export class InvalidInput extends TypeError {
  readonly issues: z.ZodError['issues']

  constructor(functionName: string, error: z.ZodError) {
    super(`${functionName}: invalid input\n${z.prettifyError(error)}`)
    this.name = 'InvalidInput'
    this.issues = error.issues
  }
}

/**
 * The call names the type (`checkInput<PriceInput>(...)`), so the schema's output is held to
 * it: the schemas and the types they check cannot drift apart. The input itself when the schema accepts it (not zod's copy: the caller's objects go on as
 * they are, extra fields included); throws InvalidInput otherwise.
 */
export const checkInput = <T>(functionName: string, schema: z.ZodType<T>, input: T): T => {
  const parsed = schema.safeParse(input)
  if (!parsed.success) throw new InvalidInput(functionName, parsed.error)
  return input
}

export const isoDateSchema = z.string().refine(isIsoDate, 'must be a real date YYYY-MM-DD')
export const lessonTypeSchema = z.enum(LESSON_TYPES)
export const geoPointSchema = z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) })
export const penceSchema = z.number().int().nonnegative()
/** A Date that holds a time (`new Date('x')` does not). */
export const instantSchema = z.date()
