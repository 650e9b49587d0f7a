import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { validationFailed, type NotFound, type ValidationFailed, type Actor } from '../shared'
import { visibleTutorRecord } from '../teaching'
import { checkDaySchedule } from './check-day-schedule'
import type { DaySchedule, DayScheduleDraft } from './day-schedule'
import { normaliseDayScheduleDraft } from './day-schedule-rules'
import type { ScheduleDeps } from './ports'

export type DaySchedulePatch = Partial<DayScheduleDraft>

/** Changes any fields of an entry (a null filter clears it); the result is checked whole. */
export function updateDaySchedule(
  deps: Pick<ScheduleDeps, 'uow'>,
  actor: Actor,
  input: { id: number; patch: DaySchedulePatch },
): ResultAsync<DaySchedule, NotFound | ValidationFailed> {
  return new ResultAsync(run(deps, actor, input.id, input.patch))
}

async function run(
  deps: Pick<ScheduleDeps, 'uow'>,
  actor: Actor,
  id: number,
  patch: DaySchedulePatch,
): Promise<Result<DaySchedule, NotFound | ValidationFailed>> {
  return deps.uow.run(async (repos) => {
    const found = visibleTutorRecord(actor, await repos.daySchedules.findById(id), 'day availability')
    if (found.isErr()) return err(found.error)
    const { id: _id, tutorId, ...current } = found.value
    await repos.daySchedules.lockTutor(tutorId)
    const draft: DayScheduleDraft = { ...current, ...definedOnly(patch) }
    const others = (await repos.daySchedules.listForTutor(tutorId)).filter((entry) => entry.id !== id)
    const errors = await checkDaySchedule(repos, draft, others)
    if (Object.keys(errors).length > 0) return err(validationFailed(errors))
    return ok(await repos.daySchedules.update(id, normaliseDayScheduleDraft(draft)))
  })
}

const definedOnly = (patch: DaySchedulePatch): DaySchedulePatch =>
  Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined))
