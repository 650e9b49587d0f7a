import { formatInTimeZone, fromZonedTime } from 'date-fns-tz'
import { addDays } from './calendar'

/** A weekly series is at most twelve weeks long (CONTRACT §16, `repeat_weeks`). */
export const MAX_SERIES_WEEKS = 12

/**
 * The start of each of `weeks` weekly lessons from `start`: the same wall-clock time in the
 * zone every week, so a 17:00 lesson stays at 17:00 across a clock change (its instant moves
 * by the hour instead). Each lesson keeps the first one's length.
 */
export const weeklyTimes = (first: { start: Date; finish: Date }, weeks: number, zone: string): Array<{ start: Date; finish: Date }> => {
  const [date = '', time = ''] = formatInTimeZone(first.start, zone, 'yyyy-MM-dd HH:mm:ss.SSS').split(' ')
  const length = first.finish.getTime() - first.start.getTime()
  return Array.from({ length: weeks }, (_, week) => {
    const start = week === 0 ? first.start : fromZonedTime(`${addDays(date, 7 * week)}T${time}`, zone)
    return { start, finish: new Date(start.getTime() + length) }
  })
}
