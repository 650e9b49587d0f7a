import { describe, expect, it } from 'vitest'
import { endOfLondonDay } from './review-summary-cache'

describe('the review summary cache lifetime', () => {
  it('ends at the next London midnight in winter (UTC+0) and in summer (UTC+1)', () => {
    expect(endOfLondonDay(new Date('2026-12-01T10:00:00Z')).toISOString()).toBe('2026-12-02T00:00:00.000Z')
    expect(endOfLondonDay(new Date('2026-07-01T10:00:00Z')).toISOString()).toBe('2026-07-01T23:00:00.000Z')
  })

  it('counts the London date, not the UTC one, just after midnight in summer', () => {
    expect(endOfLondonDay(new Date('2026-07-01T23:30:00Z')).toISOString()).toBe('2026-07-02T23:00:00.000Z')
  })
})
