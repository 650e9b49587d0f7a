import { createHash } from 'node:crypto'
import ical from 'node-ical'
import type { BusyCalendar, BusyInterval } from '@tutoring/domain'
import type { Logger } from '../logger'
import type { TextCache } from './text-cache'

/**
 * Busy intervals of an iCalendar text within [from, to): every VEVENT expanded by node-ical
 * (RRULE, EXDATE, RECURRENCE-ID overrides, TZID zones), leaving out cancelled events and
 * those marked free (TRANSP:TRANSPARENT). All-day events block their whole day(s).
 */
export function busyIntervalsOf(icsText: string, from: Date, to: Date): BusyInterval[] {
  const busy: BusyInterval[] = []
  for (const component of Object.values(ical.sync.parseICS(icsText))) {
    if (!component || component.type !== 'VEVENT') continue
    if (component.status === 'CANCELLED' || component.transparency === 'TRANSPARENT') continue
    for (const instance of ical.expandRecurringEvent(component, { from, to, expandOngoing: true })) {
      const start = new Date(instance.start.getTime())
      const end = new Date(instance.end.getTime())
      if (end.getTime() > start.getTime() && end > from && start < to) busy.push({ start, end })
    }
  }
  return busy.sort((a, b) => a.start.getTime() - b.start.getTime())
}

/**
 * The external calendar port over ICS feeds: the feed text is fetched (see fetchFeedText: public
 * addresses only, timeout, size cap) and cached for `ttlSeconds`, then parsed per request. A feed
 * that can not be fetched or parsed blocks nothing, with a warning in the log.
 */
export function icsBusyCalendar(options: {
  fetchText: (url: string) => Promise<string>
  cache: TextCache
  ttlSeconds: number
  logger: Logger
}): BusyCalendar {
  const keyOf = (url: string) => createHash('sha256').update(url).digest('hex')
  return {
    async busyBetween(feedUrl, from, to) {
      try {
        const key = keyOf(feedUrl)
        let text = await options.cache.get(key)
        if (text === undefined) {
          text = await options.fetchText(feedUrl)
          await options.cache.set(key, text, options.ttlSeconds)
        }
        return busyIntervalsOf(text, from, to)
      } catch (error) {
        options.logger.warn({ err: error, feed: new URL(feedUrl).host }, 'calendar feed unavailable; no external busy times')
        return []
      }
    },
  }
}

/** With no external calendar connected: nothing is busy. */
export const noBusyCalendar: BusyCalendar = { busyBetween: async () => [] }
