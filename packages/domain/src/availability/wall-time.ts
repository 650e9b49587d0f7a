/** Wall-clock times `HH:MM` as minutes after midnight; `24:00` (1440) may end a window. */
export const MINUTES_PER_DAY = 1440

export const parseWallTime = (text: string): number | undefined => {
  if (text.length !== 5 || text.charCodeAt(2) !== 58) return undefined
  const digits = [0, 1, 3, 4].map((i) => text.charCodeAt(i) - 48)
  if (digits.some((d) => d < 0 || d > 9)) return undefined
  const [h1 = 0, h2 = 0, m1 = 0, m2 = 0] = digits
  const hours = h1 * 10 + h2
  const minutes = m1 * 10 + m2
  if (minutes > 59 || hours > 24 || (hours === 24 && minutes > 0)) return undefined
  return hours * 60 + minutes
}

/** Like parseWallTime for times validated when the schedule was saved: a bad one is a bug. */
export const wallMinutesOf = (text: string): number => {
  const minutes = parseWallTime(text)
  if (minutes === undefined) throw new RangeError(`not an HH:MM time: ${text}`)
  return minutes
}

// Formatting a slot is a table lookup: the hot loop of availability formats thousands.
const HH_MM: readonly string[] = Array.from(
  { length: MINUTES_PER_DAY },
  (_, m) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`,
)

/** `HH:MM` of a minute of the day (taken modulo a day). */
export const formatWallTime = (minuteOfDay: number): string =>
  HH_MM[((minuteOfDay % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY] ?? '00:00'
