import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { lessonPriceBreakdown, type PriceBreakdown } from '../pricing'
import {
  locatePostcode,
  notFound,
  parsePostcode,
  validationFailed,
  type FieldErrors,
  type IsoDate,
  type LessonTypeName,
  type NotFound,
  type ParsedPostcode,
  type ValidationFailed,
} from '../shared'
import { checkTeachChoice } from '../teaching'
import { computeAvailabilityUnchecked, type DayAvailability } from './compute-availability'
import { findBookableWithFacts } from './find-bookable'
import { DURATION_PREFERENCE } from './lesson-duration'
import { availabilityInputOf, factsRange, loadWindow } from './load-availability-input'
import type { AvailabilityDeps } from './ports'
import { validateAvailabilityRequest } from './request'

/** What a client asks the availability routes. Field errors are named after the wire parameters. */
export type AvailabilityQuery = {
  teachId: number
  /** A date in the client's offset; without it the whole 14-day window. */
  date?: IsoDate
  durationMinutes?: number
  lessonType?: LessonTypeName
  /** The student's place, geocoded. */
  studentPostcode?: string
  utcOffsetMinutes?: number
  subjectLevelId?: number
  examBoardId?: number
}

export type TeachAvailability = { priceBreakdown: PriceBreakdown; availabilities: DayAvailability[] }

export type GetAvailabilityError = NotFound | ValidationFailed

/** Checks on the query that need no database: every field error at once. */
function checkQuery(deps: Pick<AvailabilityDeps, 'postcodes'>, query: AvailabilityQuery): Result<ParsedPostcode | undefined, ValidationFailed> {
  const errors: FieldErrors = {}
  const base = validateAvailabilityRequest({ date: query.date, durationMinutes: query.durationMinutes, utcOffsetMinutes: query.utcOffsetMinutes })
  if (base.isErr()) Object.assign(errors, base.error.errors)
  let postcode: ParsedPostcode | undefined
  if (query.studentPostcode !== undefined) {
    const parsed = parsePostcode(deps.postcodes, query.studentPostcode, 'post_code')
    if (parsed.isOk()) postcode = parsed.value
    else Object.assign(errors, parsed.error.errors)
  } else if (query.lessonType === 'students_home') {
    errors.post_code = ["is required for a lesson at the student's home"]
  }
  return Object.keys(errors).length > 0 ? err(validationFailed(errors)) : ok(postcode)
}

/**
 * The availability routes: a teach's free slots for the request, and the price of a lesson of
 * the requested duration (default 60 minutes) with the configured service fee, no coupon.
 *
 * Errors: 422 field errors for the query (`date`, `duration`, `utc_offset`, `post_code`: malformed,
 * unknown, or missing for students_home; `subject_level_id`/`exam_board_id` not of this teach),
 * 404 for a teach that is deleted, disabled, of a deleted tutor or of one who may not be booked.
 */
export function getAvailability(deps: AvailabilityDeps, query: AvailabilityQuery): ResultAsync<TeachAvailability, GetAvailabilityError> {
  return checkQuery(deps, query).asyncAndThen((postcode) => new ResultAsync(answer(deps, query, postcode)))
}

async function answer(deps: AvailabilityDeps, query: AvailabilityQuery, postcode: ParsedPostcode | undefined): Promise<Result<TeachAvailability, GetAvailabilityError>> {
  // The teach and its tutor's facts in one statement: its cost, not the rows, limits this route.
  const window = loadWindow(deps, query.date)
  const found = await findBookableWithFacts(deps.uow.repos.slotFacts, query.teachId, factsRange(window))
  if (!found) return err(notFound('teach'))
  const choice = checkTeachChoice(found.teach, query)
  if (Object.keys(choice).length > 0) return err(validationFailed(choice))

  // The geocoder answers while the calendar feed is read.
  const located = postcode === undefined ? undefined : locatePostcode(deps.geocoder, postcode, 'post_code')
  const request = {
    date: query.date,
    durationMinutes: query.durationMinutes,
    lessonType: query.lessonType,
    subjectLevelId: query.subjectLevelId,
    examBoardId: query.examBoardId,
    utcOffsetMinutes: query.utcOffsetMinutes,
  }
  const studentPoint = located ? located.then((r) => (r.isOk() ? r.value : null)) : null
  const input = await availabilityInputOf(deps, { bookable: found, facts: found.facts, window }, { request, date: query.date, studentPoint })
  const place = await located
  if (place?.isErr()) return err(place.error)
  return ok({
    priceBreakdown: lessonPriceBreakdown({
      hourlyRatePence: found.teach.hourlyRatePence,
      durationMinutes: query.durationMinutes ?? DURATION_PREFERENCE.default,
      serviceFeePercent: deps.config.serviceFeePercent,
    }),
    availabilities: computeAvailabilityUnchecked(input).availabilities,
  })
}
