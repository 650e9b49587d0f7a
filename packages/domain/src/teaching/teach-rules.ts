import type { ExamBoard, LessonPriceSettings, Subject } from '../catalog'
import { formatPence, type FieldErrors } from '../shared'
import type { Teach, TeachDraft } from './teach'

/** The reference data a teach is checked against. */
export type TeachReference = {
  subjects: readonly Subject[]
  examBoards: readonly ExamBoard[]
  price: LessonPriceSettings
}

const add = (errors: FieldErrors, field: string, message: string) => {
  ;(errors[field] ??= []).push(message)
}

const duplicatesIn = (ids: readonly number[]): boolean => new Set(ids).size !== ids.length

/**
 * A teach names a subject that exists, at least one level of that subject (the levels a
 * subject is taught at: subject_subject_levels), exam boards that exist, and an hourly rate
 * within the lesson-price bounds, both ends included.
 */
export function checkTeachDraft(draft: TeachDraft, reference: TeachReference): FieldErrors {
  const errors: FieldErrors = {}
  const subject = reference.subjects.find((s) => s.id === draft.subjectId)
  if (!subject) add(errors, 'subject_id', 'is not a known subject')

  if (draft.subjectLevelIds.length === 0) add(errors, 'subject_level_ids', 'needs at least one level')
  if (duplicatesIn(draft.subjectLevelIds)) add(errors, 'subject_level_ids', 'must not repeat a level')
  if (subject) {
    draft.subjectLevelIds.forEach((levelId, i) => {
      if (!subject.subjectLevelIds.includes(levelId)) add(errors, `subject_level_ids.${i}`, `is not a level of ${subject.title}`)
    })
  }

  if (duplicatesIn(draft.examBoardIds)) add(errors, 'exam_board_ids', 'must not repeat an exam board')
  draft.examBoardIds.forEach((boardId, i) => {
    if (!reference.examBoards.some((b) => b.id === boardId)) add(errors, `exam_board_ids.${i}`, 'is not a known exam board')
  })

  const { minHourlyRatePence: min, maxHourlyRatePence: max } = reference.price
  if (draft.hourlyRatePence < min || draft.hourlyRatePence > max) {
    add(errors, 'hourly_rate', `must be from ${formatPence(min)} to ${formatPence(max)}`)
  }
  return errors
}

/**
 * The one check of the level and exam board a lesson is asked for (availability's filters,
 * a booking's choice): each, when named, must be one the teach covers.
 */
export function checkTeachChoice(
  teach: Pick<Teach, 'subjectLevelIds' | 'examBoardIds'>,
  choice: { subjectLevelId?: number | null; examBoardId?: number | null },
): FieldErrors {
  const errors: FieldErrors = {}
  const { subjectLevelId, examBoardId } = choice
  if (subjectLevelId != null && !teach.subjectLevelIds.includes(subjectLevelId)) add(errors, 'subject_level_id', 'is not a level this teach covers')
  if (examBoardId != null && !teach.examBoardIds.includes(examBoardId)) add(errors, 'exam_board_id', 'is not an exam board this teach covers')
  return errors
}
