import { isIsoDate, type FieldErrors, type IsoDate } from '../shared'

/** Days off, inclusive, as calendar dates in the tutor's time zone. */
export type Holiday = { startDate: IsoDate; endDate: IsoDate }
export type TutorHoliday = Holiday & { id: number; tutorId: number }

/** Real dates, and the end not before the start (a one-day holiday starts and ends that day). */
export function checkHolidayDraft(draft: Holiday): FieldErrors {
  const errors: FieldErrors = {}
  if (!isIsoDate(draft.startDate)) errors.start_date = ['must be a real date YYYY-MM-DD']
  if (!isIsoDate(draft.endDate)) errors.end_date = ['must be a real date YYYY-MM-DD']
  else if (!errors.start_date && draft.endDate < draft.startDate) errors.end_date = ['must not be before start_date']
  return errors
}
