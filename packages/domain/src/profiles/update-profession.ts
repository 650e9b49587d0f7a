import { ResultAsync } from 'neverthrow'
import type { Actor, NotFound, ValidationFailed } from '../shared'
import { checkProfession } from './record-rules'
import { updateOwned } from './owned-records'
import type { ProfilesDeps } from './ports'
import type { Profession, ProfessionFields } from './records'

export function updateProfession(
  deps: ProfilesDeps,
  actor: Actor,
  input: { id: number; patch: Partial<ProfessionFields> },
): ResultAsync<Profession, NotFound | ValidationFailed> {
  return new ResultAsync(updateOwned(deps, actor, { ...input, resource: 'profession' }, (r) => r.professions, checkProfession))
}
