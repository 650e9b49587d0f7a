import { ResultAsync } from 'neverthrow'
import type { Actor, NotFound, ValidationFailed } from '../shared'
import { checkEducation } from './record-rules'
import { addOwned } from './owned-records'
import type { ProfilesDeps } from './ports'
import type { Education, EducationFields } from './records'

export function addEducation(
  deps: ProfilesDeps,
  actor: Actor,
  input: { userId?: number; fields: EducationFields },
): ResultAsync<Education, NotFound | ValidationFailed> {
  return new ResultAsync(addOwned(deps, actor, input, (r) => r.education, checkEducation))
}
