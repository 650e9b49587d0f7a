import { err, ok, type Result } from 'neverthrow'
import { locatePostcode, parsePostcode, validationFailed, type FieldErrors, type ValidationFailed } from '../shared'
import { checkLocationNumbers, type TutorLocationDraft } from './location'
import type { ScheduleDeps } from './ports'

export type LocationInput = {
  postcode: string
  lat?: number | null
  lng?: number | null
  travelDistanceMiles: number
}

/**
 * A location from what the client sent: the postcode normalised by the postcode parser,
 * the coordinates as given, else as the geocoder finds them, else a 422 on the postcode.
 */
export async function resolveLocation(
  deps: Pick<ScheduleDeps, 'geocoder' | 'postcodes'>,
  input: LocationInput,
): Promise<Result<TutorLocationDraft, ValidationFailed>> {
  const errors: FieldErrors = {}
  const parsed = parsePostcode(deps.postcodes, input.postcode, 'postcode')
  if (parsed.isErr()) Object.assign(errors, parsed.error.errors)
  const hasLat = input.lat !== undefined && input.lat !== null
  const hasLng = input.lng !== undefined && input.lng !== null
  if (hasLat !== hasLng) errors[hasLat ? 'lng' : 'lat'] = ['is required with the other coordinate']
  if (Object.keys(errors).length > 0 || parsed.isErr()) return err(validationFailed(errors))

  const located = hasLat ? ok({ lat: input.lat!, lng: input.lng! }) : await locatePostcode(deps.geocoder, parsed.value, 'postcode')
  if (located.isErr()) return err(located.error)
  const draft: TutorLocationDraft = { ...parsed.value, ...located.value, travelDistanceMiles: input.travelDistanceMiles }
  const numberErrors = checkLocationNumbers(draft)
  return Object.keys(numberErrors).length > 0 ? err(validationFailed(numberErrors)) : ok(draft)
}
