import fc from 'fast-check'
import { distanceMiles, publicPoint, PUBLIC_COORDINATE_PLACES, type GeoPoint } from '@tutoring/domain/shared'
import type { TravelTimes } from '@tutoring/domain/availability'

/** Miles in a degree of latitude (R = 3958.8 mi): enough to place a point about so many miles away. */
const MILES_PER_DEGREE = 69.09
const SCALE = 10 ** PUBLIC_COORDINATE_PLACES
/** Less than half a cell, so no home lands on a rounding edge. */
const IN_CELL = 0.49 / SCALE

/** A public point in Great Britain: a place on the grid of `PUBLIC_COORDINATE_PLACES` decimal places. */
export const arbPublicPoint = (): fc.Arbitrary<GeoPoint> =>
  fc.record({ lat: fc.integer({ min: 50 * SCALE, max: 58 * SCALE }), lng: fc.integer({ min: -5.5 * SCALE, max: 1.7 * SCALE }) }).map(({ lat, lng }) => ({ lat: lat / SCALE, lng: lng / SCALE }))

const same = (a: GeoPoint, b: GeoPoint): boolean => a.lat === b.lat && a.lng === b.lng

/**
 * A number spread evenly over [min, max], a millionth of the range apart: `fc.double` draws
 * evenly over representations, so most of its values in a small range sit next to zero.
 */
const uniform = (min: number, max: number): fc.Arbitrary<number> => fc.integer({ min: 0, max: 1_000_000 }).map((i) => min + ((max - min) * i) / 1_000_000)

/**
 * Three homes a tutor might have behind one public point: one anywhere in its cell, its mirror
 * image across the point, and another anywhere in the cell. Nothing any caller learns may tell
 * them apart (CONTRACT §15).
 */
export const arbHomesBehindOnePoint = (): fc.Arbitrary<{ point: GeoPoint; homes: [GeoPoint, GeoPoint, GeoPoint] }> =>
  arbPublicPoint()
    .chain((point) =>
      fc.tuple(uniform(-IN_CELL, IN_CELL), uniform(-IN_CELL, IN_CELL), uniform(-IN_CELL, IN_CELL), uniform(-IN_CELL, IN_CELL)).map(
        ([dLat, dLng, otherLat, otherLng]) => ({
          point,
          homes: [
            { lat: point.lat + dLat, lng: point.lng + dLng },
            { lat: point.lat - dLat, lng: point.lng - dLng },
            { lat: point.lat + otherLat, lng: point.lng + otherLng },
          ] as [GeoPoint, GeoPoint, GeoPoint],
        }),
      ),
    )
    .filter(({ point, homes }) => homes.every((home) => same(publicPoint(home), point)))

/**
 * A point about `miles` from `center`, in any direction: mostly within `spreadMiles` of that
 * distance, where a travel radius decides, sometimes anywhere up to half as far again.
 */
export const arbPointAround = (center: GeoPoint, miles: number, spreadMiles = miles * 0.03): fc.Arbitrary<GeoPoint> =>
  fc
    .record({
      bearing: uniform(0, 2 * Math.PI),
      distance: fc.oneof({ weight: 3, arbitrary: uniform(Math.max(0, miles - spreadMiles), miles + spreadMiles) }, { weight: 1, arbitrary: uniform(0, miles * 1.5) }),
    })
    .map(({ bearing, distance }) => {
      const degrees = distance / MILES_PER_DEGREE
      const lat = center.lat + degrees * Math.cos(bearing)
      return { lat, lng: center.lng + (degrees * Math.sin(bearing)) / Math.cos((lat * Math.PI) / 180) }
    })

/** `p` mirrored across `center`'s meridian: as far from `center` as `p` is, on the other side. */
export const mirroredEastWest = (p: GeoPoint, center: GeoPoint): GeoPoint => ({ lat: p.lat, lng: 2 * center.lng - p.lng })

/**
 * Travel times that tell every two places apart: three minutes a mile as the crow flies, to a
 * hundredth of a minute. An answer that depends on a place through them shows it.
 */
export const exactTravel: TravelTimes = {
  async between(origin, places) {
    const minutes = places.map((place) => Math.round(distanceMiles(origin, place) * 300) / 100)
    return { to: minutes, from: [...minutes] }
  },
}
