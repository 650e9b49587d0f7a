import { MINUTE_MS } from '../shared'
import type { ReminderCandidate } from './ports'

/**
 * The offset (minutes before the start) a lesson is due a reminder at now, or null. Of the
 * offsets whose time has come, the one nearest the start: a run that comes late (the service
 * was down) sends one reminder, not every one it missed. None when that offset was already
 * past when the lesson was committed at this start (CONTRACT §16: skipped), or was sent.
 */
export function dueReminderOffset(
  candidate: Pick<ReminderCandidate, 'start' | 'committedAt' | 'sentOffsets'>,
  offsetsMinutes: readonly number[],
  now: Date,
): number | null {
  const start = candidate.start.getTime()
  if (start <= now.getTime()) return null
  const due = offsetsMinutes.filter((offset) => start - offset * MINUTE_MS <= now.getTime())
  if (due.length === 0) return null
  const nearest = Math.min(...due)
  if (start - nearest * MINUTE_MS < candidate.committedAt.getTime()) return null
  return candidate.sentOffsets.includes(nearest) ? null : nearest
}

// One formatter per zone for the process's life: building one costs tens of microseconds.
const formatters = new Map<string, Intl.DateTimeFormat>()

/** A lesson's start as its recipient reads it: "Tuesday 1 December 2026 at 10:00" in their zone. */
export function wallClockIn(at: Date, timeZone: string): string {
  let format = formatters.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    formatters.set(timeZone, format)
  }
  return format.format(at)
}

/** "in 24 hours", "in 1 hour", "in 90 minutes": how far off the lesson is, as the offset says. */
export function leadTime(offsetMinutes: number): string {
  if (offsetMinutes % 60 !== 0) return `in ${offsetMinutes} minutes`
  const hours = offsetMinutes / 60
  return hours === 1 ? 'in 1 hour' : `in ${hours} hours`
}
