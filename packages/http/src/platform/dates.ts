/** CONTRACT §14: dates the service takes lie in 1900..2100; the database and the calendar code need no more. */
export const EARLIEST_DATE = '1900-01-01'
export const LATEST_DATE = '2100-12-31'

/**
 * A refinement for any date or instant field (`YYYY-MM-DD...`): outside 1900..2100 is a
 * 422 on that field. A value of another shape is left to the field's own format check.
 */
export const withinSupportedYears = [
  (value: string): boolean => {
    if (!/^\d{4}-\d{2}-\d{2}/.test(value)) return true
    const date = value.slice(0, 10)
    return date >= EARLIEST_DATE && date <= LATEST_DATE
  },
  `must be between ${EARLIEST_DATE} and ${LATEST_DATE}`,
] as const
