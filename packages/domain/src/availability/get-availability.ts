import type { ResultAsync } from 'neverthrow'
import { lessonPriceBreakdown, type PriceBreakdown } from '../pricing'
import { DURATION_PREFERENCE, computeAvailability, type DayAvailability } from './compute-availability'
import { loadAvailabilityInput, type AvailabilityQuery, type LoadAvailabilityError } from './load-availability-input'
import type { AvailabilityDeps } from './ports'

export type TeachAvailability = { priceBreakdown: PriceBreakdown; availabilities: DayAvailability[] }

/**
 * The availability routes: a teach's free slots for the request, and the price of a lesson of
 * the requested duration (default 60 minutes) with the configured service fee, no coupon.
 */
export function getAvailability(deps: AvailabilityDeps, query: AvailabilityQuery): ResultAsync<TeachAvailability, LoadAvailabilityError> {
  return loadAvailabilityInput(deps, query).map((input) => ({
    priceBreakdown: lessonPriceBreakdown({
      hourlyRatePence: input.hourlyRatePence,
      durationMinutes: query.durationMinutes ?? DURATION_PREFERENCE.default,
      serviceFeePercent: deps.config.serviceFeePercent,
    }),
    availabilities: computeAvailability(input).availabilities,
  }))
}
