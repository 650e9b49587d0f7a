import { ResultAsync } from 'neverthrow'
import type { Actor, NotFound, ValidationFailed } from '../shared'
import { checkEducation } from './record-rules'
import { updateOwned } from './owned-records'
import type { ProfilesDeps } from './ports'
import type { Education, EducationFields } from './records'

export function updateEducation(
  deps: ProfilesDeps,
  actor: Actor,
  input: { id: number; patch: Partial<EducationFields> },
): ResultAsync<Education, NotFound | ValidationFailed> {
  return new ResultAsync(updateOwned(deps, actor, { ...input, resource: 'education' }, (r) => r.education, checkEducation))
}
