import { MINUTE_MS } from '../shared'

/**
 * A non-cancelled lesson of the tutor. For an in-person lesson the travel port has already
 * worked out, for the requested place, the minutes needed to get from the requested place to
 * this lesson (`travelBeforeMinutes`, kept clear before its start) and from this lesson to the
 * requested place (`travelAfterMinutes`, kept clear after its finish).
 */
export type BookedLesson = {
  start: Date
  finish: Date
  inPerson: boolean
  travelBeforeMinutes?: number
  travelAfterMinutes?: number
}

/** An event of a connected external calendar. Taken as it is: the buffer is for lessons. */
export type BusyInterval = { start: Date; end: Date }

/** Disjoint, sorted half-open intervals [starts[i], ends[i]) in epoch milliseconds. */
export type BlockedTimes = { starts: number[]; ends: number[] }

type Span = [start: number, end: number]

const merge = (spans: Span[]): BlockedTimes => {
  spans.sort((a, b) => a[0] - b[0])
  const starts: number[] = []
  const ends: number[] = []
  for (const [start, end] of spans) {
    const last = ends.length - 1
    if (last >= 0 && start <= (ends[last] ?? 0)) {
      ends[last] = Math.max(ends[last] ?? 0, end)
    } else {
      starts.push(start)
      ends.push(end)
    }
  }
  return { starts, ends }
}

/**
 * The tutor's blocked times for one buffer length, within [from, to): each lesson widened by
 * the buffer on both sides, and, when both it and the requested lesson are in person, by the
 * travel time. Intervals outside the range are dropped before sorting so that one day costs
 * a handful of lessons, not all of them.
 */
export const blockedTimes = (input: {
  lessons: readonly BookedLesson[]
  busy: readonly BusyInterval[]
  bufferMinutes: number
  requestInPerson: boolean
  from: number
  to: number
}): BlockedTimes => {
  const buffer = input.bufferMinutes * MINUTE_MS
  const spans: Span[] = []
  for (const lesson of input.lessons) {
    const travel = input.requestInPerson && lesson.inPerson
    const before = buffer + (travel ? (lesson.travelBeforeMinutes ?? 0) * MINUTE_MS : 0)
    const after = buffer + (travel ? (lesson.travelAfterMinutes ?? 0) * MINUTE_MS : 0)
    const start = lesson.start.getTime() - before
    const end = lesson.finish.getTime() + after
    if (end > input.from && start < input.to) spans.push([start, end])
  }
  for (const event of input.busy) {
    const start = event.start.getTime()
    const end = event.end.getTime()
    if (end > input.from && start < input.to) spans.push([start, end])
  }
  return merge(spans)
}

/** Index of the first blocked interval that ends after `instant`. */
export const firstEndingAfter = (blocked: BlockedTimes, instant: number): number => {
  let lo = 0
  let hi = blocked.ends.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((blocked.ends[mid] ?? 0) <= instant) lo = mid + 1
    else hi = mid
  }
  return lo
}
