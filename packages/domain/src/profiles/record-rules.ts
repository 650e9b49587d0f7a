import type { FieldErrors } from '../shared'
import type { EducationFields, ProfessionFields } from './records'

/** A course ends in or after the year it started; an open end means "still studying". */
export const checkEducation = (e: EducationFields): FieldErrors =>
  e.endYear !== null && e.endYear < e.startYear ? { end_year: ['must not be before start_year'] } : {}

/** A job ends on or after the day it started; an open end means "current". */
export const checkProfession = (p: ProfessionFields): FieldErrors =>
  p.endDate !== null && p.endDate < p.startDate ? { end_date: ['must not be before start_date'] } : {}
