import { err, ok, type Result } from 'neverthrow'
import { isIsoDate, validationFailed, type FieldErrors, type ValidationFailed } from '../shared'
import type { AvailabilityRequest } from './compute-availability'
import { lessonDurationProblem } from './lesson-duration'

import { UTC_OFFSET_MINUTES } from './input-schema'

const isWholeBetween = (value: number, min: number, max: number): boolean =>
  Number.isInteger(value) && value >= min && value <= max

/** The checks the availability route makes on its query before calling computeAvailability. */
export const validateAvailabilityRequest = (request: AvailabilityRequest): Result<AvailabilityRequest, ValidationFailed> => {
  const errors: FieldErrors = {}
  if (request.date !== undefined && !isIsoDate(request.date)) errors.date = ['must be a YYYY-MM-DD date']
  const duration = request.durationMinutes === undefined ? undefined : lessonDurationProblem(request.durationMinutes)
  if (duration) errors.duration = [duration]
  if (
    request.utcOffsetMinutes !== undefined &&
    !isWholeBetween(request.utcOffsetMinutes, UTC_OFFSET_MINUTES.min, UTC_OFFSET_MINUTES.max)
  ) {
    errors.utc_offset = [`minutes east of UTC from ${UTC_OFFSET_MINUTES.min} to ${UTC_OFFSET_MINUTES.max}`]
  }
  return Object.keys(errors).length > 0 ? err(validationFailed(errors)) : ok(request)
}
