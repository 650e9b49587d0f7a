/**
 * Time-zone offsets without date-fns-tz in hot loops. One `Intl.DateTimeFormat.format` call
 * costs about 1 µs where date-fns-tz's getTimezoneOffset costs about 8 µs, and an offset
 * timeline answers every later question about a short range by array lookup.
 */
import { DAY_MS, HOUR_MS, MINUTE_MS, dayNumberAt, isoDateOf, type IsoDate } from './calendar'

export const LONDON = 'Europe/London'

// Building a formatter costs tens of microseconds, so each zone gets one for the process's life.
const formatters = new Map<string, Intl.DateTimeFormat>()

const formatterFor = (zone: string): Intl.DateTimeFormat => {
  const cached = formatters.get(zone)
  if (cached) return cached
  const made = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  })
  formatters.set(zone, made)
  return made
}

export const isValidTimeZone = (zone: string): boolean => {
  try {
    formatterFor(zone)
    return true
  } catch {
    return false
  }
}

/** Reads the five numbers of "8/16/2037, 01:46" without a regular expression or allocation. */
const wallMsOfFormatted = (text: string): number => {
  const parts = [0, 0, 0, 0, 0]
  let index = -1
  let inNumber = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code >= 48 && code <= 57) {
      if (!inNumber) {
        index++
        inNumber = true
      }
      parts[index] = (parts[index] ?? 0) * 10 + (code - 48)
    } else {
      inNumber = false
    }
  }
  const [month = 0, day = 0, year = 0, hour = 0, minute = 0] = parts
  return Date.UTC(year, month - 1, day, hour === 24 ? 0 : hour, minute)
}

/**
 * The zone's offset from UTC at an instant, in milliseconds east of UTC. Whole minutes only:
 * the seconds of pre-1900 local mean times do not matter to a booking system.
 */
export const zoneOffsetMs = (zone: string, instantMs: number): number => {
  const minute = Math.floor(instantMs / MINUTE_MS) * MINUTE_MS
  return wallMsOfFormatted(formatterFor(zone).format(minute)) - minute
}

/**
 * The offsets of one zone over a range of instants: segment i has offset `offsets[i]` from
 * `starts[i]` until the next start. Built by sampling every SAMPLE_STEP and bisecting where two
 * samples differ, which assumes no zone changes its offset twice within a week (the closest
 * pairs since 1970 are the Ramadan suspensions of summer time, about a month apart).
 */
export type OffsetTimeline = {
  readonly zone: string
  readonly from: number
  readonly to: number
  readonly starts: readonly number[]
  readonly offsets: readonly number[]
}

const SAMPLE_STEP = 7 * DAY_MS

const findChange = (zone: string, before: number, after: number, offsetBefore: number): number => {
  let lo = before
  let hi = after
  while (hi - lo > MINUTE_MS) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE_MS) * MINUTE_MS
    if (zoneOffsetMs(zone, mid) === offsetBefore) lo = mid
    else hi = mid
  }
  return hi
}

export const offsetTimeline = (zone: string, from: number, to: number): OffsetTimeline => {
  if (!(to >= from)) throw new RangeError('offsetTimeline needs from <= to')
  const first = zoneOffsetMs(zone, from)
  const starts = [from]
  const offsets = [first]
  let previousAt = from
  let previous = first
  while (previousAt < to) {
    const at = Math.min(previousAt + SAMPLE_STEP, to)
    const offset = zoneOffsetMs(zone, at)
    if (offset !== previous) {
      starts.push(findChange(zone, previousAt, at, previous))
      offsets.push(offset)
    }
    previousAt = at
    previous = offset
  }
  return { zone, from, to, starts, offsets }
}

const segmentIndexAt = (timeline: OffsetTimeline, instantMs: number): number => {
  if (instantMs < timeline.from || instantMs > timeline.to) {
    throw new RangeError(`instant ${instantMs} outside the timeline of ${timeline.zone}`)
  }
  let i = timeline.starts.length - 1
  while (i > 0 && (timeline.starts[i] ?? 0) > instantMs) i--
  return i
}

export const offsetAt = (timeline: OffsetTimeline, instantMs: number): number =>
  timeline.offsets[segmentIndexAt(timeline, instantMs)] ?? 0

/**
 * The one offset in force over [from, to], or undefined when the offset changes inside it.
 * Lets a caller convert a whole day of wall times with one subtraction each.
 */
export const constantOffsetOver = (
  timeline: OffsetTimeline,
  from: number,
  to: number,
): number | undefined => {
  const first = segmentIndexAt(timeline, from)
  return first === segmentIndexAt(timeline, to) ? timeline.offsets[first] : undefined
}

// Offsets lie within -12 h..+14 h, so an instant for wall time w lies in [w - 14 h, w + 12 h].
const EARLIEST_BEFORE_WALL = 15 * HOUR_MS
const LATEST_AFTER_WALL = 13 * HOUR_MS

/**
 * The instant of a wall-clock time (`wallMs` = the wall time written as if it were UTC).
 * Ambiguous and skipped times resolve like Temporal's "compatible": a time that occurs twice
 * takes the earlier instant; a time skipped by a spring-forward moves forward by the gap
 * (01:30 on 2026-03-29 in London is 02:30 BST).
 */
export const instantOfWall = (timeline: OffsetTimeline, wallMs: number): number => {
  const offsetBefore = offsetAt(timeline, wallMs - EARLIEST_BEFORE_WALL)
  const offsetAfter = offsetAt(timeline, wallMs + LATEST_AFTER_WALL)
  if (offsetBefore === offsetAfter) return wallMs - offsetBefore
  const early = wallMs - offsetBefore
  const late = wallMs - offsetAfter
  const earlyValid = offsetAt(timeline, early) === offsetBefore
  const lateValid = offsetAt(timeline, late) === offsetAfter
  if (earlyValid && lateValid) return Math.min(early, late)
  if (earlyValid) return early
  if (lateValid) return late
  return early
}

/** The day number of the zone's calendar date at an instant (one Intl call). */
export const zoneDayNumber = (zone: string, instantMs: number): number =>
  dayNumberAt(instantMs, zoneOffsetMs(zone, instantMs))

/** The last minute `londonToday` was asked about, and its answer: every request of a minute asks the same. */
let todayOfMinute: { minute: number; today: IsoDate } | undefined

/**
 * "Today" of the booking and search window, which CONTRACT.md fixes in Europe/London. Worked
 * out once a minute (London's offsets are whole minutes, so a minute never straddles its
 * midnight): the Intl call showed in the search profile.
 */
export const londonToday = (now: Date): IsoDate => {
  const instantMs = now.getTime()
  const minute = Math.floor(instantMs / MINUTE_MS)
  if (todayOfMinute?.minute !== minute) todayOfMinute = { minute, today: isoDateOf(zoneDayNumber(LONDON, instantMs)) }
  return todayOfMinute.today
}
