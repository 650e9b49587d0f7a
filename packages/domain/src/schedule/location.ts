import type { FieldErrors } from '../shared'

/**
 * A tutor's base for in-person lessons: where they are and how far they travel. One per
 * tutor. `outcode` (e.g. "SW1A") is what the public may see; the coordinates never are.
 */
export type TutorLocationRecord = {
  id: number
  tutorId: number
  postcode: string
  outcode: string
  lat: number
  lng: number
  travelDistanceMiles: number
}

export type TutorLocationDraft = Omit<TutorLocationRecord, 'id' | 'tutorId'>
export type Coordinates = { lat: number; lng: number }

export const TRAVEL_DISTANCE_MILES = { min: 0, max: 100 } as const

export function checkLocationNumbers(draft: Pick<TutorLocationDraft, 'lat' | 'lng' | 'travelDistanceMiles'>): FieldErrors {
  const errors: FieldErrors = {}
  if (!Number.isFinite(draft.lat) || draft.lat < -90 || draft.lat > 90) errors.lat = ['must be a latitude from -90 to 90']
  if (!Number.isFinite(draft.lng) || draft.lng < -180 || draft.lng > 180) errors.lng = ['must be a longitude from -180 to 180']
  const { min, max } = TRAVEL_DISTANCE_MILES
  const miles = draft.travelDistanceMiles
  if (!Number.isFinite(miles) || miles < min || miles > max) {
    errors.travel_distance_miles = [`must be from ${min} to ${max} miles`]
  }
  return errors
}

/** A UK postcode, as a maintained postcode library reads it. */
export type ParsedPostcode = { postcode: string; outcode: string }

export interface PostcodeParser {
  /** Normalised ("SW1A 1AA": upper case, one space) or undefined when it is not a UK postcode. */
  parse(text: string): ParsedPostcode | undefined
}

/**
 * Finds a postcode's coordinates. Until a real geocoder is wired in, the offline one knows
 * none, and a location needs `lat` and `lng` in its body.
 */
export interface Geocoder {
  locate(postcode: string): Promise<Coordinates | undefined>
}

export const offlineGeocoder: Geocoder = { locate: async () => undefined }
