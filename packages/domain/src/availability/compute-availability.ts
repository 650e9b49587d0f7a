import {
  BOOKING_WINDOW_DAYS,
  checkInput,
  DAY_MS,
  DEFAULT_TUTOR_TIME_ZONE,
  HOUR_MS,
  LESSON_TYPES,
  LONDON,
  MINUTE_MS,
  SLOT_INTERVAL_MINUTES,
  constantOffsetOver,
  dayNumberAt,
  dayNumberOf,
  instantOfWall,
  isInPerson,
  isoDateOf,
  offsetAt,
  offsetTimeline,
  weekdayIndexOf,
  type IsoDate,
  type LessonTypeName,
  type OffsetTimeline,
} from '../shared'
import { DURATION_PREFERENCE } from './lesson-duration'
import { availabilityInputSchema } from './input-schema'
import { blockedTimes, firstEndingAfter, type BlockedTimes, type BookedLesson, type BusyInterval } from './busy'
import { DAY_NAMES, clockMinutesOf, formatTimeOfDay, type Holiday, type WeeklyEntry } from '../schedule'


/** The request, validated at the edge (see validateAvailabilityRequest). */
export type AvailabilityRequest = {
  /** A date in the client's offset; without it, every date of the 14-day window. */
  date?: IsoDate
  durationMinutes?: number
  lessonType?: LessonTypeName
  subjectId?: number
  subjectLevelId?: number
  examBoardId?: number
  /** Minutes east of UTC, -720..840 (CONTRACT.md §5); default 0. */
  utcOffsetMinutes?: number
}

export type AvailabilityInput = {
  schedule: readonly WeeklyEntry[]
  /** IANA zone of the schedule's wall-clock times; default Europe/London. */
  timeZone?: string
  holidays?: readonly Holiday[]
  /** The tutor's lessons that hold their time (see booking's isHoldingSlot). */
  lessons?: readonly BookedLesson[]
  busy?: readonly BusyInterval[]
  /** Whether the student's place lies within the tutor's travel distance; students_home needs `true`. */
  withinTravelDistance?: boolean
  request: AvailabilityRequest
  now: Date
}

/** A free slot's start and end, `HH:MM` in the client's offset. */
export type AvailableTime = { start: string; end: string }
/** One client date of the answer: the lesson types the schedule offers that date, and the free slots. */
export type DayAvailability = { date: IsoDate; lessonTypes: LessonTypeName[]; times: AvailableTime[] }
export type Availability = { availabilities: DayAvailability[] }

const STEP_MS = SLOT_INTERVAL_MINUTES * MINUTE_MS
// Offsets lie within -12 h..+14 h; these margins keep every wall time of a local day inside a timeline.
const DAY_MARGIN_BEFORE = 15 * HOUR_MS
const DAY_MARGIN_AFTER = DAY_MS + 13 * HOUR_MS
const TIMELINE_MARGIN = 3 * DAY_MS

const typeBit = (type: LessonTypeName): number => 1 << LESSON_TYPES.indexOf(type)
const typesOfMask = (mask: number): LessonTypeName[] => LESSON_TYPES.filter((type) => (mask & typeBit(type)) !== 0)

/** A schedule entry made ready for the loop: windows in minutes, lesson types as bits. */
type PreparedEntry = {
  windows: { from: number; to: number }[]
  offeredMask: number
  makesSlots: boolean
  bufferMinutes: number
}

/**
 * An entry's teach filter applies when the request names the same thing; a request that does
 * not name a level or exam board sees every entry (the booking, which names them, is checked
 * again with them).
 */
const filterMatches = (entryValue: number | null | undefined, requested: number | undefined): boolean =>
  entryValue === null || entryValue === undefined || requested === undefined || entryValue === requested

const prepareSchedule = (input: AvailabilityInput): PreparedEntry[][] => {
  const { request } = input
  const byWeekday: PreparedEntry[][] = DAY_NAMES.map(() => [])
  const studentsHomeAllowed = input.withinTravelDistance === true
  for (const entry of input.schedule) {
    if (
      !filterMatches(entry.subjectId, request.subjectId) ||
      !filterMatches(entry.subjectLevelId, request.subjectLevelId) ||
      !filterMatches(entry.examBoardId, request.examBoardId)
    ) {
      continue
    }
    let offeredMask = 0
    for (const type of entry.lessonTypes) {
      if (type !== 'students_home' || studentsHomeAllowed) offeredMask |= typeBit(type)
    }
    if (offeredMask === 0) continue
    const makesSlots = request.lessonType === undefined || (offeredMask & typeBit(request.lessonType)) !== 0
    const windows = entry.slots.map((w) => ({ from: clockMinutesOf(w.from), to: clockMinutesOf(w.to) }))
    byWeekday[DAY_NAMES.indexOf(entry.day)]?.push({ windows, offeredMask, makesSlots, bufferMinutes: entry.bufferMinutes })
  }
  return byWeekday
}

/** The instants the answer covers and the window that bounds bookable starts. */
type Frame = {
  offsetMs: number
  durationMs: number
  firstDay: number
  lastDay: number
  rangeStart: number
  rangeEnd: number
  earliestStart: number
  latestStartBefore: number
  tutorTimeline: OffsetTimeline
}

/**
 * Dates of the answer are the client's. With a date, it is that client day. Without, it is
 * every client day the 14-day window touches, from the client's today: the window itself is
 * London's (today..today+14 there, CONTRACT.md §13), so a client elsewhere sees the window's
 * slots under its own dates: 15 dates in London's offset, 16 (or 17 when the clocks change
 * inside the window) in others. Changing `utc_offset` relabels slots, never adds or drops one.
 */
const frameOf = (input: AvailabilityInput): Frame => {
  const { request } = input
  const nowMs = input.now.getTime()
  const offsetMs = (request.utcOffsetMinutes ?? 0) * MINUTE_MS
  const durationMs = (request.durationMinutes ?? DURATION_PREFERENCE.default) * MINUTE_MS
  if (!(durationMs > 0)) throw new RangeError('the duration must be positive')
  const zone = input.timeZone ?? DEFAULT_TUTOR_TIME_ZONE

  // One London timeline covers "today", the window's end and, for a London tutor, usually
  // every day asked about: 14-day answers reach at most now - 4 days .. now + 19 days.
  const london = offsetTimeline(LONDON, nowMs - 5 * DAY_MS, nowMs + 20 * DAY_MS)
  const today = dayNumberAt(nowMs, offsetAt(london, nowMs))
  const windowEnd = instantOfWall(london, (today + BOOKING_WINDOW_DAYS + 1) * DAY_MS)

  const clientDay = request.date === undefined ? undefined : dayNumberOf(request.date)
  const firstDay = clientDay ?? dayNumberAt(nowMs, offsetMs)
  const lastDay = clientDay ?? dayNumberAt(windowEnd - 1, offsetMs)
  const rangeStart = firstDay * DAY_MS - offsetMs
  const rangeEnd = (lastDay + 1) * DAY_MS - offsetMs
  const needFrom = rangeStart - TIMELINE_MARGIN
  const needTo = rangeEnd + TIMELINE_MARGIN
  const tutorTimeline =
    zone === LONDON && needFrom >= london.from && needTo <= london.to ? london : offsetTimeline(zone, needFrom, needTo)
  return {
    offsetMs,
    durationMs,
    firstDay,
    lastDay,
    rangeStart,
    rangeEnd,
    // Slots start in the future, and the window starts at London's midnight, which is never after now.
    earliestStart: Math.max(rangeStart, nowMs + 1),
    latestStartBefore: Math.min(rangeEnd, windowEnd),
    tutorTimeline,
  }
}

/** Per client day of the frame: slot starts (epoch ms) and the lesson types offered. */
type DayBuckets = { starts: number[][]; typeMasks: number[] }

const holidayDays = (holidays: readonly Holiday[]): [number, number][] =>
  holidays.map((h) => [dayNumberOf(h.startDate), dayNumberOf(h.endDate)])

/**
 * Emits the free starts of one window: on the 15-minute grid from the window's start, wholly
 * inside it, clear of every blocked interval. A sweep: a blocked interval in the way moves the
 * candidate to the first grid point after it, so each window costs O(slots + intervals).
 */
const sweepWindow = (
  windowStart: number,
  windowEnd: number,
  frame: Frame,
  blocked: BlockedTimes,
  emit: (start: number) => void,
): void => {
  const lastStart = Math.min(windowEnd - frame.durationMs, frame.latestStartBefore - 1)
  let start = windowStart + Math.max(0, Math.ceil((frame.earliestStart - windowStart) / STEP_MS)) * STEP_MS
  let i = firstEndingAfter(blocked, start)
  while (start <= lastStart) {
    while (i < blocked.ends.length && (blocked.ends[i] ?? 0) <= start) i++
    const blockedStart = blocked.starts[i]
    if (blockedStart !== undefined && blockedStart < start + frame.durationMs) {
      start = windowStart + Math.ceil(((blocked.ends[i] ?? 0) - windowStart) / STEP_MS) * STEP_MS
      continue
    }
    emit(start)
    start += STEP_MS
  }
}

const collectSlots = (input: AvailabilityInput, frame: Frame): DayBuckets => {
  const dayCount = frame.lastDay - frame.firstDay + 1
  const buckets: DayBuckets = { starts: Array.from({ length: dayCount }, () => []), typeMasks: new Array<number>(dayCount).fill(0) }
  const byWeekday = prepareSchedule(input)
  const holidays = holidayDays(input.holidays ?? [])
  const requestInPerson = input.request.lessonType !== undefined && isInPerson(input.request.lessonType)
  const blockedByBuffer = new Map<number, BlockedTimes>()
  const blockedFor = (bufferMinutes: number): BlockedTimes => {
    let blocked = blockedByBuffer.get(bufferMinutes)
    if (!blocked) {
      blocked = blockedTimes({
        lessons: input.lessons ?? [],
        busy: input.busy ?? [],
        bufferMinutes,
        requestInPerson,
        from: frame.rangeStart,
        to: frame.rangeEnd + frame.durationMs,
      })
      blockedByBuffer.set(bufferMinutes, blocked)
    }
    return blocked
  }
  const emit = (start: number): void => {
    buckets.starts[dayNumberAt(start, frame.offsetMs) - frame.firstDay]?.push(start)
  }

  const timeline = frame.tutorTimeline
  const firstLocal = dayNumberAt(frame.rangeStart, offsetAt(timeline, frame.rangeStart))
  const lastLocal = dayNumberAt(frame.rangeEnd - 1, offsetAt(timeline, frame.rangeEnd - 1))
  for (let local = firstLocal; local <= lastLocal; local++) {
    const entries = byWeekday[weekdayIndexOf(local)] ?? []
    if (entries.length === 0 || holidays.some(([from, to]) => local >= from && local <= to)) continue
    const midnight = local * DAY_MS
    // Most days have one offset throughout: one subtraction per window edge. Days near a
    // clock change resolve each edge on the timeline instead.
    const dayOffset = constantOffsetOver(timeline, midnight - DAY_MARGIN_BEFORE, midnight + DAY_MARGIN_AFTER)
    const instantOf = (minutes: number): number => {
      const wall = midnight + minutes * MINUTE_MS
      return dayOffset === undefined ? instantOfWall(timeline, wall) : wall - dayOffset
    }
    for (const entry of entries) {
      for (const window of entry.windows) {
        const windowStart = instantOf(window.from)
        const windowEnd = instantOf(window.to)
        if (windowEnd <= frame.rangeStart || windowStart >= frame.rangeEnd) continue
        const firstTouched = Math.max(dayNumberAt(windowStart, frame.offsetMs), frame.firstDay)
        const lastTouched = Math.min(dayNumberAt(windowEnd - 1, frame.offsetMs), frame.lastDay)
        for (let day = firstTouched; day <= lastTouched; day++) {
          buckets.typeMasks[day - frame.firstDay] = (buckets.typeMasks[day - frame.firstDay] ?? 0) | entry.offeredMask
        }
        if (entry.makesSlots) sweepWindow(windowStart, windowEnd, frame, blockedFor(entry.bufferMinutes), emit)
      }
    }
  }
  return buckets
}

/** Windows of several entries may interleave or overlap: sort when needed, drop repeats. */
const sortedDistinct = (starts: number[]): number[] => {
  let sorted = true
  for (let i = 1; i < starts.length && sorted; i++) sorted = (starts[i - 1] ?? 0) < (starts[i] ?? 0)
  if (sorted) return starts
  starts.sort((a, b) => a - b)
  return starts.filter((start, i) => i === 0 || start !== starts[i - 1])
}

/** Free slot starts (epoch ms) per client date; the engine behind the response and the slot check. */
export const availableStarts = (input: AvailabilityInput): { date: IsoDate; starts: number[]; lessonTypes: LessonTypeName[] }[] => {
  const frame = frameOf(input)
  const buckets = collectSlots(input, frame)
  return buckets.starts.map((starts, i) => ({
    date: isoDateOf(frame.firstDay + i),
    starts: sortedDistinct(starts),
    lessonTypes: typesOfMask(buckets.typeMasks[i] ?? 0),
  }))
}

/**
 * SPEC.md "Availability rules" 1-7 and CONTRACT.md §5: slots on a 15-minute grid from each
 * window's start, wholly inside one window, clear of lessons widened by the entry's buffer
 * (and, in person, the travel time), clear of external events, off holidays, in the future,
 * inside the London 14-day window; dates and times in the client's offset. A slot that
 * crosses the client's midnight is listed under the date it starts, its `end` reading
 * earlier than its `start`.
 */
export const computeAvailabilityUnchecked = (input: AvailabilityInput): Availability => {
  const offsetMinutes = input.request.utcOffsetMinutes ?? 0
  const durationMinutes = input.request.durationMinutes ?? DURATION_PREFERENCE.default
  const minuteOf = (instant: number): number => Math.floor(instant / MINUTE_MS) + offsetMinutes
  return {
    availabilities: availableStarts(input).map((day) => ({
      date: day.date,
      lessonTypes: day.lessonTypes,
      times: day.starts.map((start) => {
        const minute = minuteOf(start)
        return { start: formatTimeOfDay(minute), end: formatTimeOfDay(minute + durationMinutes) }
      }),
    })),
  }
}

/**
 * computeAvailability for callers the types do not reach: the input is checked against
 * availabilityInputSchema first (an unknown weekday or an inverted window throws InvalidInput
 * instead of answering no slots). The app's own path, whose input the edge and the database
 * have checked, calls computeAvailabilityUnchecked.
 */
export const computeAvailability = (input: AvailabilityInput): Availability =>
  computeAvailabilityUnchecked(checkInput<AvailabilityInput>('computeAvailability', availabilityInputSchema, input))
