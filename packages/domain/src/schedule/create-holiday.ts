import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { validationFailed, type Forbidden, type ValidationFailed, type Actor } from '../shared'
import { requireTutor } from '../teaching'
import { checkHolidayDraft, type TutorHoliday, type Holiday } from './holiday'
import type { ScheduleDeps } from './ports'

/** Holidays may overlap one another; together they say which days are off. */
export function createHoliday(
  deps: Pick<ScheduleDeps, 'uow'>,
  actor: Actor,
  draft: Holiday,
): ResultAsync<TutorHoliday, Forbidden | ValidationFailed> {
  return requireTutor(actor).asyncAndThen((tutor) => new ResultAsync(insertHoliday(deps, tutor, draft)))
}

async function insertHoliday(
  deps: Pick<ScheduleDeps, 'uow'>,
  tutor: Actor,
  draft: Holiday,
): Promise<Result<TutorHoliday, ValidationFailed>> {
  const errors = checkHolidayDraft(draft)
  if (Object.keys(errors).length > 0) return err(validationFailed(errors))
  return deps.uow.run(async ({ holidays }) => ok(await holidays.insert(tutor.id, draft)))
}
