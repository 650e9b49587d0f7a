import { err, ok, type Result } from 'neverthrow'
import { fieldError, type ValidationFailed } from './errors'

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

/** Places a tutor shows the public are this many decimal places of a degree: about 0.7 by 0.4 miles. */
export const PUBLIC_COORDINATE_PLACES = 2

/**
 * A tutor's place as anyone outside the service may learn it (CONTRACT §14: exact coordinates
 * never leave): rounded half up to `PUBLIC_COORDINATE_PLACES`. Search measures from this point
 * (rule 6 and the distance shown), so no answer depends on more than it. The database's
 * search table rounds the same way (`floor(x * 100 + 0.5) / 100`, float for float).
 */
export const publicPoint = (p: GeoPoint): GeoPoint => ({ lat: roundHalfUp2(p.lat), lng: roundHalfUp2(p.lng) })
const roundHalfUp2 = (x: number): number => Math.floor(x * 100 + 0.5) / 100

/** Search answers distance in bands of this many miles (CONTRACT §14), so nobody can triangulate a home. */
export const DISTANCE_BAND_MILES = 0.5

/** A distance as search shows it: rounded up to the band's upper bound ("within 1.5 miles"), at least one band. */
export const distanceBand = (miles: number): number =>
  Math.max(DISTANCE_BAND_MILES, Math.ceil(miles / DISTANCE_BAND_MILES) * DISTANCE_BAND_MILES)

/** A UK postcode, as a maintained postcode library reads it. */
export type ParsedPostcode = { postcode: string; outcode: string }

export interface PostcodeParser {
  /** Normalised ("SW1A 1AA": upper case, one space) or undefined when it is not a UK postcode. */
  parse(text: string): ParsedPostcode | undefined
}

/** Finds a postcode's coordinates; undefined for a postcode it does not know. */
export interface Geocoder {
  locate(postcode: string): Promise<GeoPoint | undefined>
}

export const POSTCODE_MALFORMED = 'is not a valid UK postcode'
export const POSTCODE_UNKNOWN = 'could not be located'

/**
 * The one postcode check of every context (search, availability, booking, tutor locations):
 * the text as a UK postcode, else a 422 on `field`.
 */
export const parsePostcode = (parser: PostcodeParser, text: string, field: string): Result<ParsedPostcode, ValidationFailed> => {
  const parsed = parser.parse(text)
  return parsed ? ok(parsed) : err(fieldError(field, POSTCODE_MALFORMED))
}

/** Where a parsed postcode lies, else a 422 on `field`. */
export async function locatePostcode(geocoder: Geocoder, postcode: ParsedPostcode, field: string): Promise<Result<GeoPoint, ValidationFailed>> {
  const point = await geocoder.locate(postcode.postcode)
  return point ? ok(point) : err(fieldError(field, POSTCODE_UNKNOWN))
}

/** Both steps: a client's postcode as a point. */
export async function findPostcode(
  deps: { postcodes: PostcodeParser; geocoder: Geocoder },
  text: string,
  field: string,
): Promise<Result<GeoPoint, ValidationFailed>> {
  const parsed = parsePostcode(deps.postcodes, text, field)
  return parsed.isErr() ? err(parsed.error) : locatePostcode(deps.geocoder, parsed.value, field)
}
