import type { FieldErrors } from '../shared'
import type { DaySchedule, DayScheduleDraft } from './day-schedule'
import { checkDayScheduleDraft, checkScheduleFilters } from './day-schedule-rules'
import type { ScheduleRepos } from './ports'

/** Every rule of a schedule entry, against the tutor's other entries and the catalogue. */
export async function checkDaySchedule(
  repos: Pick<ScheduleRepos, 'catalog'>,
  draft: DayScheduleDraft,
  others: readonly DaySchedule[],
): Promise<FieldErrors> {
  const errors = checkDayScheduleDraft(draft, others)
  const needsCatalog = draft.subjectId !== null || draft.subjectLevelId !== null || draft.examBoardId !== null
  if (!needsCatalog) return errors
  const [subjects, levels, boards] = await Promise.all([
    repos.catalog.subjects({}),
    repos.catalog.subjectLevels({}),
    repos.catalog.examBoards(),
  ])
  const filterErrors = checkScheduleFilters(draft, {
    subjects,
    subjectLevelIds: levels.map((l) => l.id),
    examBoardIds: boards.map((b) => b.id),
  })
  return { ...errors, ...filterErrors }
}
