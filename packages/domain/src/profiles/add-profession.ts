import { ResultAsync } from 'neverthrow'
import type { Actor, NotFound, ValidationFailed } from '../shared'
import { checkProfession } from './record-rules'
import { addOwned } from './owned-records'
import type { ProfilesDeps } from './ports'
import type { Profession, ProfessionFields } from './records'

export function addProfession(
  deps: ProfilesDeps,
  actor: Actor,
  input: { userId?: number; fields: ProfessionFields },
): ResultAsync<Profession, NotFound | ValidationFailed> {
  return new ResultAsync(addOwned(deps, actor, input, (r) => r.professions, checkProfession))
}
