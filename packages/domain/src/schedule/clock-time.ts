/**
 * Wall-clock times of a weekly schedule, `HH:MM` from 00:00 to 24:00, as minutes after
 * midnight. 24:00 may only end a window (a window running to midnight).
 */
export const SCHEDULE_GRID_MINUTES = 15
export const END_OF_DAY_MINUTES = 24 * 60

const CLOCK_TIME = /^(\d{2}):(\d{2})$/

export const parseClockTime = (text: string): number | undefined => {
  const match = CLOCK_TIME.exec(text)
  if (!match) return undefined
  const hours = Number(match[1])
  const minutes = Number(match[2])
  if (minutes > 59 || hours > 24 || (hours === 24 && minutes !== 0)) return undefined
  return hours * 60 + minutes
}

export const formatClockTime = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`

/** Slots are offered every 15 minutes from a window's start, so windows sit on that grid. */
export const isOnScheduleGrid = (minutes: number): boolean => minutes % SCHEDULE_GRID_MINUTES === 0
