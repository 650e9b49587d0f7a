import { err, ok, ResultAsync, type Result } from 'neverthrow'
import type { Actor, Forbidden, ValidationFailed } from '../shared'
import { requireTutor } from '../teaching'
import type { TutorLocationRecord } from './location'
import type { ScheduleDeps } from './ports'
import { resolveLocation, type LocationInput } from './resolve-location'

/** A tutor sets their base; one per tutor, so a new one replaces the old. */
export function saveLocation(
  deps: ScheduleDeps,
  actor: Actor,
  input: LocationInput,
): ResultAsync<TutorLocationRecord, Forbidden | ValidationFailed> {
  return requireTutor(actor).asyncAndThen((tutor) => new ResultAsync(run(deps, tutor, input)))
}

async function run(deps: ScheduleDeps, tutor: Actor, input: LocationInput): Promise<Result<TutorLocationRecord, ValidationFailed>> {
  const resolved = await resolveLocation(deps, input)
  if (resolved.isErr()) return err(resolved.error)
  return deps.uow.run(async ({ locations }) => ok(await locations.replace(tutor.id, resolved.value)))
}
