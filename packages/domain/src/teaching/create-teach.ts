import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { fieldError, validationFailed, type Forbidden, type ValidationFailed, type Actor } from '../shared'
import { loadTeachReference } from './load-teach-reference'
import type { TeachingDeps } from './ports'
import type { Teach, TeachDraft } from './teach'
import { checkTeachDraft } from './teach-rules'
import { requireTutor } from './tutor-records'

export type CreateTeachInput = Omit<TeachDraft, 'enabled'> & { enabled?: boolean }
export type CreateTeachError = Forbidden | ValidationFailed

const ALREADY_TAUGHT = 'you already teach this subject: change that teach instead'

/** A tutor adds a subject they teach; it is enabled unless they say otherwise. */
export function createTeach(
  deps: Pick<TeachingDeps, 'uow'>,
  actor: Actor,
  input: CreateTeachInput,
): ResultAsync<Teach, CreateTeachError> {
  return requireTutor(actor).asyncAndThen((tutor) => new ResultAsync(run(deps, tutor, { ...input, enabled: input.enabled ?? true })))
}

async function run(deps: Pick<TeachingDeps, 'uow'>, tutor: Actor, draft: TeachDraft): Promise<Result<Teach, CreateTeachError>> {
  return deps.uow.run(async ({ teaches, catalog }) => {
    const errors = checkTeachDraft(draft, await loadTeachReference(catalog))
    if (Object.keys(errors).length > 0) return err(validationFailed(errors))
    if (await teaches.findBySubject(tutor.id, draft.subjectId)) return err(fieldError('subject_id', ALREADY_TAUGHT))
    const teach = await teaches.insert(tutor.id, draft)
    return teach ? ok(teach) : err(fieldError('subject_id', ALREADY_TAUGHT))
  })
}
