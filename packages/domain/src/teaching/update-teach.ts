import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { fieldError, validationFailed, type NotFound, type ValidationFailed, type Actor } from '../shared'
import { loadTeachReference } from './load-teach-reference'
import type { TeachingDeps } from './ports'
import type { Teach, TeachDraft } from './teach'
import { checkTeachDraft } from './teach-rules'
import { visibleTutorRecord } from './tutor-records'

export type TeachPatch = Partial<TeachDraft>
export type UpdateTeachError = NotFound | ValidationFailed

/** Changes any of a teach's fields; the result is checked as a whole, like a new teach. */
export function updateTeach(
  deps: Pick<TeachingDeps, 'uow'>,
  actor: Actor,
  input: { id: number; patch: TeachPatch },
): ResultAsync<Teach, UpdateTeachError> {
  return new ResultAsync(run(deps, actor, input.id, input.patch))
}

async function run(
  deps: Pick<TeachingDeps, 'uow'>,
  actor: Actor,
  id: number,
  patch: TeachPatch,
): Promise<Result<Teach, UpdateTeachError>> {
  return deps.uow.run(async ({ teaches, catalog }) => {
    const found = visibleTutorRecord(actor, await teaches.findById(id), 'teach')
    if (found.isErr()) return err(found.error)
    const current = found.value
    const draft: TeachDraft = {
      subjectId: patch.subjectId ?? current.subjectId,
      // A new subject has other levels: the old ones cannot carry over.
      subjectLevelIds: patch.subjectLevelIds ?? (patch.subjectId === undefined ? current.subjectLevelIds : []),
      examBoardIds: patch.examBoardIds ?? current.examBoardIds,
      hourlyRatePence: patch.hourlyRatePence ?? current.hourlyRatePence,
      enabled: patch.enabled ?? current.enabled,
    }
    const errors = checkTeachDraft(draft, await loadTeachReference(catalog))
    if (Object.keys(errors).length > 0) return err(validationFailed(errors))
    const other = await teaches.findBySubject(current.tutorId, draft.subjectId)
    const taken = fieldError('subject_id', 'this tutor already teaches that subject in another teach')
    if (other && other.id !== id) return err(taken)
    const updated = await teaches.update(id, draft)
    return updated ? ok(updated) : err(taken)
  })
}
