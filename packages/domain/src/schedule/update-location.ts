import { err, ok, ResultAsync, type Result } from 'neverthrow'
import type { Actor, NotFound, ValidationFailed } from '../shared'
import { visibleTutorRecord } from '../teaching'
import type { TutorLocationRecord } from './location'
import type { ScheduleDeps } from './ports'
import { resolveLocation, type LocationInput } from './resolve-location'

export type LocationPatch = Partial<LocationInput>

/**
 * Changes any of postcode, coordinates and travel distance. A new postcode without
 * coordinates is located afresh: the old coordinates belonged to the old postcode.
 */
export function updateLocation(
  deps: ScheduleDeps,
  actor: Actor,
  input: { id: number; patch: LocationPatch },
): ResultAsync<TutorLocationRecord, NotFound | ValidationFailed> {
  return new ResultAsync(run(deps, actor, input.id, input.patch))
}

async function run(deps: ScheduleDeps, actor: Actor, id: number, patch: LocationPatch): Promise<Result<TutorLocationRecord, NotFound | ValidationFailed>> {
  const found = visibleTutorRecord(actor, await deps.uow.repos.locations.findById(id), 'location')
  if (found.isErr()) return err(found.error)
  const current = found.value
  const postcodeChanged = patch.postcode !== undefined && deps.postcodes.parse(patch.postcode)?.postcode !== current.postcode
  const keepCoordinates = !postcodeChanged && patch.lat === undefined && patch.lng === undefined
  const resolved = await resolveLocation(deps, {
    postcode: patch.postcode ?? current.postcode,
    lat: keepCoordinates ? current.lat : patch.lat,
    lng: keepCoordinates ? current.lng : patch.lng,
    travelDistanceMiles: patch.travelDistanceMiles ?? current.travelDistanceMiles,
  })
  if (resolved.isErr()) return err(resolved.error)
  return deps.uow.run(async ({ locations }) => ok(await locations.update(id, resolved.value)))
}
