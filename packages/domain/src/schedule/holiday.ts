import { isIsoDate, type FieldErrors } from '../shared'

/** Days off, inclusive, as calendar dates in the tutor's time zone. */
export type TutorHoliday = { id: number; tutorId: number; startDate: string; endDate: string }
export type TutorHolidayDraft = Pick<TutorHoliday, 'startDate' | 'endDate'>

/** Real dates, and the end not before the start (a one-day holiday starts and ends that day). */
export function checkHolidayDraft(draft: TutorHolidayDraft): FieldErrors {
  const errors: FieldErrors = {}
  if (!isIsoDate(draft.startDate)) errors.start_date = ['must be a real date YYYY-MM-DD']
  if (!isIsoDate(draft.endDate)) errors.end_date = ['must be a real date YYYY-MM-DD']
  else if (!errors.start_date && draft.endDate < draft.startDate) errors.end_date = ['must not be before start_date']
  return errors
}
