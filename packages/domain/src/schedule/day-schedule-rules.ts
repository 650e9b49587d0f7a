import type { Subject } from '../catalog'
import { LESSON_TYPES, SLOT_INTERVAL_MINUTES, type FieldErrors } from '../shared'
import { MINUTES_PER_DAY, formatClockTime, isOnScheduleGrid, parseClockTime } from './clock-time'
import { BUFFER_MINUTES, DAY_NAMES, type DaySchedule, type DayScheduleDraft, type ScheduleSlot } from './day-schedule'

export type MinuteWindow = { from: number; to: number }

const add = (errors: FieldErrors, field: string, message: string) => {
  ;(errors[field] ??= []).push(message)
}

/** Half-open windows: 09:00-12:00 and 12:00-15:00 touch but do not overlap. */
export const windowsOverlap = (a: MinuteWindow, b: MinuteWindow): boolean => a.from < b.to && b.from < a.to

/** Index pairs [i, j], i < j, of the windows that overlap each other. */
export const overlappingPairs = (windows: readonly MinuteWindow[]): Array<[number, number]> => {
  const pairs: Array<[number, number]> = []
  windows.forEach((a, i) => {
    windows.forEach((b, j) => {
      if (i < j && windowsOverlap(a, b)) pairs.push([i, j])
    })
  })
  return pairs
}

const label = (w: MinuteWindow) => `${formatClockTime(w.from)}-${formatClockTime(w.to)}`

/** The windows that parsed and are well-formed, by index; errors for the others. */
function checkSlotTimes(slots: readonly ScheduleSlot[], errors: FieldErrors): Map<number, MinuteWindow> {
  const windows = new Map<number, MinuteWindow>()
  slots.forEach((slot, i) => {
    const from = parseClockTime(slot.from)
    const to = parseClockTime(slot.to)
    if (from === undefined) add(errors, `slots.${i}.from`, 'must be a time from 00:00 to 23:45 (HH:MM)')
    else if (from === MINUTES_PER_DAY) add(errors, `slots.${i}.from`, 'must be before 24:00')
    else if (!isOnScheduleGrid(from)) add(errors, `slots.${i}.from`, `must be on the ${SLOT_INTERVAL_MINUTES}-minute grid (:00, :15, :30, :45)`)
    if (to === undefined) add(errors, `slots.${i}.to`, 'must be a time from 00:15 to 24:00 (HH:MM)')
    else if (!isOnScheduleGrid(to)) add(errors, `slots.${i}.to`, `must be on the ${SLOT_INTERVAL_MINUTES}-minute grid (:00, :15, :30, :45)`)
    if (from === undefined || to === undefined || errors[`slots.${i}.from`] || errors[`slots.${i}.to`]) return
    if (to <= from) add(errors, `slots.${i}.to`, 'must be after from')
    else windows.set(i, { from, to })
  })
  return windows
}

/**
 * The windows of one weekday may not overlap, neither inside one entry nor across the
 * tutor's other entries of that day, whatever their subject filters: the tutor is one
 * person, and a lesson in one window would clash with a lesson in the other.
 */
function checkOverlaps(windows: Map<number, MinuteWindow>, others: readonly DaySchedule[], day: string, errors: FieldErrors) {
  const indexed = [...windows.entries()]
  for (const [a, b] of overlappingPairs(indexed.map(([, w]) => w))) {
    const [i, first] = indexed[a]!
    const [j] = indexed[b]!
    add(errors, `slots.${Math.max(i, j)}`, `overlaps ${label(first)} of this entry`)
  }
  const taken = others.flatMap((entry) =>
    entry.slots.map((s) => ({ from: parseClockTime(s.from) ?? 0, to: parseClockTime(s.to) ?? 0 })),
  )
  for (const [i, window] of indexed) {
    const clash = taken.find((other) => windowsOverlap(window, other))
    if (clash) add(errors, `slots.${i}`, `overlaps ${label(clash)} of your other ${day} schedule`)
  }
}

/**
 * Everything about a schedule entry but its filters' existence. `others` are the tutor's
 * other entries; only those of the same day matter.
 */
export function checkDayScheduleDraft(draft: DayScheduleDraft, others: readonly DaySchedule[]): FieldErrors {
  const errors: FieldErrors = {}
  if (!DAY_NAMES.includes(draft.day)) add(errors, 'day', 'must be SUNDAY to SATURDAY')
  if (draft.slots.length === 0) add(errors, 'slots', 'needs at least one time window')
  const windows = checkSlotTimes(draft.slots, errors)
  checkOverlaps(windows, others.filter((o) => o.day === draft.day), draft.day, errors)

  if (draft.lessonTypes.length === 0) add(errors, 'lesson_types', 'needs at least one lesson type')
  if (new Set(draft.lessonTypes).size !== draft.lessonTypes.length) add(errors, 'lesson_types', 'must not repeat a lesson type')
  draft.lessonTypes.forEach((type, i) => {
    if (!LESSON_TYPES.includes(type)) add(errors, `lesson_types.${i}`, 'must be online, tutors_home or students_home')
  })

  const { min, max, step } = BUFFER_MINUTES
  const buffer = draft.bufferMinutes
  if (!Number.isInteger(buffer) || buffer < min || buffer > max || buffer % step !== 0) {
    add(errors, 'buffer_minutes', `must be a multiple of ${step} from ${min} to ${max}`)
  }
  return errors
}

export type ScheduleFilterReference = { subjects: readonly Subject[]; subjectLevelIds: readonly number[]; examBoardIds: readonly number[] }

/** Filters must name things that exist; a level next to a subject must be one of its levels. */
export function checkScheduleFilters(draft: DayScheduleDraft, reference: ScheduleFilterReference): FieldErrors {
  const errors: FieldErrors = {}
  const subject = draft.subjectId === null ? undefined : reference.subjects.find((s) => s.id === draft.subjectId)
  if (draft.subjectId !== null && !subject) add(errors, 'subject_id', 'is not a known subject')
  if (draft.subjectLevelId !== null) {
    if (!reference.subjectLevelIds.includes(draft.subjectLevelId)) add(errors, 'subject_level_id', 'is not a known subject level')
    else if (subject && !subject.subjectLevelIds.includes(draft.subjectLevelId)) {
      add(errors, 'subject_level_id', `is not a level of ${subject.title}`)
    }
  }
  if (draft.examBoardId !== null && !reference.examBoardIds.includes(draft.examBoardId)) {
    add(errors, 'exam_board_id', 'is not a known exam board')
  }
  return errors
}

/** Stored order: lesson types in id order, windows by start. */
export function normaliseDayScheduleDraft(draft: DayScheduleDraft): DayScheduleDraft {
  return {
    ...draft,
    lessonTypes: LESSON_TYPES.filter((t) => draft.lessonTypes.includes(t)),
    slots: [...draft.slots].sort((a, b) => (parseClockTime(a.from) ?? 0) - (parseClockTime(b.from) ?? 0)),
  }
}
