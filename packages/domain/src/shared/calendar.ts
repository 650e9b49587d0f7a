/**
 * Calendar dates as whole days since 1970-01-01 ("day numbers"), so that date arithmetic is
 * integer arithmetic and never depends on the process time zone.
 */
export type IsoDate = string

export const MINUTE_MS = 60_000
export const HOUR_MS = 3_600_000
export const DAY_MS = 86_400_000

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** The day number of a `YYYY-MM-DD` date, or undefined when the text is not a real date. */
export const parseIsoDate = (text: string): number | undefined => {
  const match = ISO_DATE.exec(text)
  if (!match) return undefined
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const ms = Date.UTC(year, month - 1, day)
  // Date.UTC rolls 2026-02-30 over to March; a round trip catches it.
  const back = new Date(ms)
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) {
    return undefined
  }
  return ms / DAY_MS
}

export const isIsoDate = (text: string): boolean => parseIsoDate(text) !== undefined

/** Like parseIsoDate for dates that were validated at the edge: a malformed one is a bug. */
export const dayNumberOf = (date: IsoDate): number => {
  const day = parseIsoDate(date)
  if (day === undefined) throw new RangeError(`not a YYYY-MM-DD date: ${date}`)
  return day
}

export const isoDateOf = (dayNumber: number): IsoDate =>
  new Date(dayNumber * DAY_MS).toISOString().slice(0, 10)

export const addDays = (date: IsoDate, days: number): IsoDate => isoDateOf(dayNumberOf(date) + days)

/** 0 = Sunday .. 6 = Saturday; 1970-01-01 was a Thursday. */
export const weekdayIndexOf = (dayNumber: number): number => (((dayNumber + 4) % 7) + 7) % 7

/** The UTC day number an instant falls on after shifting it by `offsetMs`. */
export const dayNumberAt = (instantMs: number, offsetMs: number): number =>
  Math.floor((instantMs + offsetMs) / DAY_MS)
