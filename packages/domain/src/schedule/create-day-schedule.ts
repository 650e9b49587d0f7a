import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { validationFailed, type Forbidden, type ValidationFailed, type Actor } from '../shared'
import { requireTutor } from '../teaching'
import { checkDaySchedule } from './check-day-schedule'
import type { DaySchedule, DayScheduleDraft } from './day-schedule'
import { normaliseDayScheduleDraft } from './day-schedule-rules'
import type { ScheduleDeps } from './ports'

export type CreateDayScheduleInput = Omit<DayScheduleDraft, 'subjectId' | 'subjectLevelId' | 'examBoardId' | 'bufferMinutes'> &
  Partial<Pick<DayScheduleDraft, 'subjectId' | 'subjectLevelId' | 'examBoardId' | 'bufferMinutes'>>

/** A tutor adds a weekly schedule entry; its windows may not overlap any of that day's. */
export function createDaySchedule(
  deps: Pick<ScheduleDeps, 'uow'>,
  actor: Actor,
  input: CreateDayScheduleInput,
): ResultAsync<DaySchedule, Forbidden | ValidationFailed> {
  const draft: DayScheduleDraft = {
    ...input,
    bufferMinutes: input.bufferMinutes ?? 0,
    subjectId: input.subjectId ?? null,
    subjectLevelId: input.subjectLevelId ?? null,
    examBoardId: input.examBoardId ?? null,
  }
  return requireTutor(actor).asyncAndThen((tutor) => new ResultAsync(run(deps, tutor, draft)))
}

async function run(
  deps: Pick<ScheduleDeps, 'uow'>,
  tutor: Actor,
  draft: DayScheduleDraft,
): Promise<Result<DaySchedule, ValidationFailed>> {
  return deps.uow.run(async (repos) => {
    await repos.daySchedules.lockTutor(tutor.id)
    const others = await repos.daySchedules.listForTutor(tutor.id)
    const errors = await checkDaySchedule(repos, draft, others)
    if (Object.keys(errors).length > 0) return err(validationFailed(errors))
    return ok(await repos.daySchedules.insert(tutor.id, normaliseDayScheduleDraft(draft)))
  })
}
