import { DAY_MS, LONDON, zoneDayNumber, zoneOffsetMs } from '../shared'

/** The next midnight in London after `now`: the summary is cached until the end of the day. */
export const endOfLondonDay = (now: Date): Date => {
  const nextMidnightUtc = (zoneDayNumber(LONDON, now.getTime()) + 1) * DAY_MS
  return new Date(nextMidnightUtc - zoneOffsetMs(LONDON, nextMidnightUtc))
}
