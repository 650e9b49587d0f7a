import type { FieldErrors } from '../shared'

/** Days off, inclusive, as calendar dates in the tutor's time zone. */
export type TutorHoliday = { id: number; tutorId: number; startDate: string; endDate: string }
export type TutorHolidayDraft = Pick<TutorHoliday, 'startDate' | 'endDate'>

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** A real calendar day `YYYY-MM-DD` (2026-02-30 is not). */
export const isCalendarDate = (text: string): boolean => {
  const match = DATE.exec(text)
  if (!match) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/** Real dates, and the end not before the start (a one-day holiday starts and ends that day). */
export function checkHolidayDraft(draft: TutorHolidayDraft): FieldErrors {
  const errors: FieldErrors = {}
  if (!isCalendarDate(draft.startDate)) errors.start_date = ['must be a real date YYYY-MM-DD']
  if (!isCalendarDate(draft.endDate)) errors.end_date = ['must be a real date YYYY-MM-DD']
  else if (!errors.start_date && draft.endDate < draft.startDate) errors.end_date = ['must not be before start_date']
  return errors
}
