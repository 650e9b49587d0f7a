import { err, ok, type Result } from 'neverthrow'
import { validationFailed, type FieldErrors, type ValidationFailed } from '../shared'
import { checkLocationNumbers, type TutorLocationDraft } from './location'
import type { ScheduleDeps } from './ports'

export type LocationInput = {
  postcode: string
  lat?: number | null
  lng?: number | null
  travelDistanceMiles: number
}

const COORDINATES_NEEDED = 'is required: the postcode could not be located'

/**
 * A location from what the client sent: the postcode normalised by the postcode parser,
 * the coordinates as given, else as the geocoder finds them, else a 422 asking for them.
 */
export async function resolveLocation(
  deps: Pick<ScheduleDeps, 'geocoder' | 'postcodes'>,
  input: LocationInput,
): Promise<Result<TutorLocationDraft, ValidationFailed>> {
  const errors: FieldErrors = {}
  const parsed = deps.postcodes.parse(input.postcode)
  if (!parsed) errors.postcode = ['is not a valid UK postcode']
  const hasLat = input.lat !== undefined && input.lat !== null
  const hasLng = input.lng !== undefined && input.lng !== null
  if (hasLat !== hasLng) errors[hasLat ? 'lng' : 'lat'] = ['is required with the other coordinate']
  if (Object.keys(errors).length > 0 || !parsed) return err(validationFailed(errors))

  const coordinates = hasLat ? { lat: input.lat!, lng: input.lng! } : await deps.geocoder.locate(parsed.postcode)
  if (!coordinates) return err(validationFailed({ lat: [COORDINATES_NEEDED], lng: [COORDINATES_NEEDED] }))
  const draft: TutorLocationDraft = { ...parsed, ...coordinates, travelDistanceMiles: input.travelDistanceMiles }
  const numberErrors = checkLocationNumbers(draft)
  return Object.keys(numberErrors).length > 0 ? err(validationFailed(numberErrors)) : ok(draft)
}
