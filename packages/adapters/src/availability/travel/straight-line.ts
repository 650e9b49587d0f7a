import type { TravelTimes } from '@tutoring/domain/availability'
import { distanceMiles, type GeoPoint } from '@tutoring/domain/shared'

/** Roads are longer than the crow flies; 1.3 is the usual UK detour factor. */
export const ROAD_FACTOR = 1.3
/** A town average, lights and parking included. */
export const AVERAGE_MPH = 20
const ROUND_TO_MINUTES = 5

/** Minutes by road estimated from the straight line, rounded up to 5 minutes (0 for the same place). */
export const estimateTravelMinutes = (a: GeoPoint, b: GeoPoint): number => {
  const minutes = ((distanceMiles(a, b) * ROAD_FACTOR) / AVERAGE_MPH) * 60
  // The epsilon keeps float noise from rounding an exact 5 up to 10; max() turns -0 into 0.
  return Math.max(0, Math.ceil(minutes / ROUND_TO_MINUTES - 1e-9) * ROUND_TO_MINUTES)
}

/** The offline travel times: symmetric straight-line estimates. */
export const straightLineTravel: TravelTimes = {
  async between(origin, places) {
    const minutes = places.map((place) => estimateTravelMinutes(origin, place))
    return { to: minutes, from: [...minutes] }
  },
}
