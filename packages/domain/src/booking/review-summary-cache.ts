import { DAY_MS, LONDON, zoneDayNumber, zoneOffsetMs } from '../shared'
import type { ReviewSummary } from './ports'

/** Where a tutor's review summary is kept until it expires. */
export interface ReviewSummaryCache {
  get(tutorId: number, now: Date): ReviewSummary | undefined
  set(tutorId: number, summary: ReviewSummary, expiresAt: Date): void
}

/** The next midnight in London after `now`: the summary is cached until the end of the day. */
export const endOfLondonDay = (now: Date): Date => {
  const nextMidnightUtc = (zoneDayNumber(LONDON, now.getTime()) + 1) * DAY_MS
  return new Date(nextMidnightUtc - zoneOffsetMs(LONDON, nextMidnightUtc))
}
