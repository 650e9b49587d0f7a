import { describe, expect, it } from 'vitest'
import { checkHolidayDraft } from './holiday'

describe('holidays', () => {
  it('accepts a one-day holiday and a longer one', () => {
    expect(checkHolidayDraft({ startDate: '2026-12-24', endDate: '2026-12-24' })).toEqual({})
    expect(checkHolidayDraft({ startDate: '2026-12-24', endDate: '2027-01-02' })).toEqual({})
  })
  it('refuses an end before the start', () => {
    expect(checkHolidayDraft({ startDate: '2026-12-24', endDate: '2026-12-23' })).toEqual({ end_date: ['must not be before start_date'] })
  })
  it('refuses dates that do not exist', () => {
    expect(checkHolidayDraft({ startDate: '2028-02-29', endDate: '2028-02-29' })).toEqual({})
    expect(checkHolidayDraft({ startDate: '2026-02-30', endDate: '2026-13-01' })).toEqual({
      start_date: ['must be a real date YYYY-MM-DD'],
      end_date: ['must be a real date YYYY-MM-DD'],
    })
  })
})
