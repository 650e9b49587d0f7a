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
