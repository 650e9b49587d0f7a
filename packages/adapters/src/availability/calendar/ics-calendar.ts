import { createHash } from 'node:crypto'
import ical from 'node-ical'
import type { BusyCalendar, BusyInterval } from '@tutoring/domain/availability'
import type { Logger } from '../../logger'
import type { TextCache } from './text-cache'

const DAY_MS = 86_400_000
/** Around now: the booking window (14 days) and the margins availability reads on either side. */
const WINDOW_BEFORE_DAYS = 3
const WINDOW_AFTER_DAYS = 18
/** More busy times than this in the window is no calendar a person keeps (238 a day). */
export const MAX_BUSY_INTERVALS = 5_000

type Rule = { after(date: Date, inclusive?: boolean): Date | undefined }

/**
 * The RRULE a VEVENT carries, answering `between` (all node-ical asks of it) one occurrence
 * at a time and stopping when the feed's budget of occurrences is spent, so an event that
 * repeats every minute costs at most the budget, never the whole window's worth.
 */
type Budget = { left: number; exceeded: boolean }

function budgeted<R extends Rule>(rule: R, budget: Budget): R {
  return new Proxy(rule, {
    get(target, property) {
      if (property === 'between') {
        return (after: Date, before: Date, inclusive = false): Date[] => {
          const dates: Date[] = []
          let next = target.after(after, inclusive)
          while (next && next <= before) {
            if (budget.left <= 0) {
              budget.exceeded = true
              return dates
            }
            budget.left--
            dates.push(next)
            next = target.after(next, false)
          }
          return dates
        }
      }
      const value: unknown = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/**
 * Busy intervals of an iCalendar text within [from, to): every VEVENT expanded by node-ical
 * (RRULE, EXDATE, RECURRENCE-ID overrides, TZID zones), leaving out cancelled events and
 * those marked free (TRANSP:TRANSPARENT). All-day events block their whole day(s).
 * At most `maxIntervals` occurrences are expanded; a feed with more is marked `truncated`.
 */
export function busyIntervalsOf(icsText: string, from: Date, to: Date, maxIntervals = MAX_BUSY_INTERVALS): BusyInterval[] & { truncated?: boolean } {
  const busy: BusyInterval[] & { truncated?: boolean } = []
  const budget: Budget = { left: maxIntervals, exceeded: false }
  for (const component of Object.values(ical.sync.parseICS(icsText))) {
    if (!component || component.type !== 'VEVENT') continue
    if (component.status === 'CANCELLED' || component.transparency === 'TRANSPARENT') continue
    const event = component.rrule ? { ...component, rrule: budgeted(component.rrule, budget) } : component
    for (const instance of ical.expandRecurringEvent(event, { from, to, expandOngoing: true })) {
      const start = new Date(instance.start.getTime())
      const end = new Date(instance.end.getTime())
      if (end.getTime() > start.getTime() && end > from && start < to) {
        if (!component.rrule && budget.left-- <= 0) budget.exceeded = true
        else busy.push({ start, end })
      }
    }
    if (budget.exceeded) {
      busy.truncated = true
      break
    }
  }
  busy.sort((a, b) => a.start.getTime() - b.start.getTime())
  return busy
}

/** What the cache keeps per feed: its busy times in a window around the fetch, or that it failed. */
type Entry = { from: number; to: number; busy: Array<[number, number]> } | { failed: string }

/**
 * Whether a cached window still holds what availability can ask for now (a day's slack on
 * either side); times outside it can not be booked, so they need no busy times.
 */
const coversNow = (entry: Entry, now: number): boolean =>
  'failed' in entry || (entry.from <= now - (WINDOW_BEFORE_DAYS - 1) * DAY_MS && entry.to >= now + (WINDOW_AFTER_DAYS - 1) * DAY_MS)

const readEntry = (text: string | undefined): Entry | undefined => {
  if (text === undefined) return undefined
  try {
    return JSON.parse(text) as Entry
  } catch {
    return undefined
  }
}

/**
 * The external calendar port over ICS feeds. A feed is fetched (see fetchFeedText: public
 * addresses only, timeout, size cap) and parsed once into its busy times in a three-week
 * window around now, and those are cached for `ttlSeconds` (in Redis, shared, or in the
 * process); requests only filter them. A feed that can not be fetched or parsed blocks
 * nothing, and that failure is cached too, so a dead feed is not asked again on every
 * request. A feed with more busy times than anyone keeps blocks the whole window: the
 * tutor is never offered at a time their calendar may hold. Concurrent requests for the
 * same feed share one fetch.
 */
export function icsBusyCalendar(options: {
  fetchText: (url: string) => Promise<string>
  cache: TextCache
  ttlSeconds: number
  logger: Logger
  now: () => Date
  maxIntervals?: number
}): BusyCalendar {
  const keyOf = (url: string) => createHash('sha256').update(url).digest('hex')
  const loading = new Map<string, Promise<Entry>>()

  async function load(feedUrl: string, key: string): Promise<Entry> {
    const now = options.now().getTime()
    const from = now - WINDOW_BEFORE_DAYS * DAY_MS
    const to = now + WINDOW_AFTER_DAYS * DAY_MS
    let entry: Entry
    try {
      const busy = busyIntervalsOf(await options.fetchText(feedUrl), new Date(from), new Date(to), options.maxIntervals)
      if (busy.truncated) {
        options.logger.warn({ feed: new URL(feedUrl).host, intervals: busy.length }, 'calendar feed has too many busy times; its whole window counts as busy')
        entry = { from, to, busy: [[from, to]] }
      } else entry = { from, to, busy: busy.map((b) => [b.start.getTime(), b.end.getTime()]) }
    } catch (error) {
      options.logger.warn({ err: error, feed: new URL(feedUrl).host }, 'calendar feed unavailable; no external busy times')
      entry = { failed: error instanceof Error ? error.message : String(error) }
    }
    await options.cache.set(key, JSON.stringify(entry), options.ttlSeconds)
    return entry
  }

  return {
    async busyBetween(feedUrl, from, to) {
      const key = keyOf(feedUrl)
      let entry = readEntry(await options.cache.get(key))
      if (!entry || !coversNow(entry, options.now().getTime())) {
        let pending = loading.get(key)
        if (!pending) {
          pending = load(feedUrl, key).finally(() => loading.delete(key))
          loading.set(key, pending)
        }
        entry = await pending
      }
      if ('failed' in entry) return []
      return entry.busy
        .filter(([start, end]) => end > from.getTime() && start < to.getTime())
        .map(([start, end]) => ({ start: new Date(start), end: new Date(end) }))
    },
  }
}

/** With no external calendar connected: nothing is busy. */
export const noBusyCalendar: BusyCalendar = { busyBetween: async () => [] }
