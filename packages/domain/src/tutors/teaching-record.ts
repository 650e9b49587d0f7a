import { HOUR_MS } from '../shared'

/** One of a tutor's lessons that was not cancelled: what hours taught are counted from. */
export type TaughtLesson = { start: Date; finish: Date }

const twoPlaces = (n: number): number => Math.round(n * 100) / 100

/**
 * Hours taught: the length of every lesson that has finished by `now` and was not
 * cancelled, in hours to two places. A lesson still running or yet to come counts later.
 */
export function hoursTaught(lessons: readonly TaughtLesson[], now: Date): number {
  const ms = lessons.reduce((sum, l) => (l.finish.getTime() <= now.getTime() ? sum + (l.finish.getTime() - l.start.getTime()) : sum), 0)
  return twoPlaces(ms / HOUR_MS)
}
