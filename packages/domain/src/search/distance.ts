/** A point on the earth, in degrees. */
export type GeoPoint = { lat: number; lng: number }

/** Mean earth radius in miles: CONTRACT.md measures travel distance in miles. */
export const EARTH_RADIUS_MILES = 3958.8

const radians = (degrees: number): number => (degrees * Math.PI) / 180

/** Great-circle (haversine) distance in miles. */
export const distanceMiles = (a: GeoPoint, b: GeoPoint): number => {
  const dLat = radians(b.lat - a.lat)
  const dLng = radians(b.lng - a.lng)
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.lat)) * Math.cos(radians(b.lat)) * Math.sin(dLng / 2) ** 2
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)))
}
