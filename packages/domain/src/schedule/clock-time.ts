import { SLOT_INTERVAL_MINUTES } from '../shared'

/**
 * Wall-clock times of the weekly schedule, `HH:MM` from 00:00 to 24:00, as minutes after
 * midnight. 24:00 may only end a window (a window running to midnight).
 */
export const MINUTES_PER_DAY = 24 * 60

const CLOCK_TIME = /^(\d{2}):(\d{2})$/

export const parseClockTime = (text: string): number | undefined => {
  const match = CLOCK_TIME.exec(text)
  if (!match) return undefined
  const hours = Number(match[1])
  const minutes = Number(match[2])
  if (minutes > 59 || hours > 24 || (hours === 24 && minutes !== 0)) return undefined
  return hours * 60 + minutes
}

/** Like parseClockTime for times checked when the schedule was saved: a bad one is a bug. */
export const clockMinutesOf = (text: string): number => {
  const minutes = parseClockTime(text)
  if (minutes === undefined) throw new RangeError(`not an HH:MM time: ${text}`)
  return minutes
}

// Formatting is a table lookup: availability's hot loop formats thousands of slot times.
const HH_MM: readonly string[] = Array.from(
  { length: MINUTES_PER_DAY + 1 },
  (_, m) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`,
)

/** `HH:MM` of a window's bound, 0 to 1440 (`24:00`). */
export const formatClockTime = (minutes: number): string => {
  const text = HH_MM[minutes]
  if (text === undefined) throw new RangeError(`not a minute of the day: ${minutes}`)
  return text
}

/** `HH:MM` of a time of day, taken modulo a day (a slot may end past midnight). */
export const formatTimeOfDay = (minuteOfDay: number): string =>
  HH_MM[((minuteOfDay % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY] ?? '00:00'

/** Slots are offered every 15 minutes from a window's start, so windows sit on that grid. */
export const isOnScheduleGrid = (minutes: number): boolean => minutes % SLOT_INTERVAL_MINUTES === 0
