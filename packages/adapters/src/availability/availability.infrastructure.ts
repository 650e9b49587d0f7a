import type Redis from 'ioredis'
import type { BusyCalendar, TravelTimes } from '@tutoring/domain/availability'
import type { Config } from '../config'
import type { Logger } from '../logger'
import type { AddressPolicy } from '../net'
import { fallbackTextCache, fetchFeedText, icsBusyCalendar, memoryTextCache, noBusyCalendar } from './calendar'
import { osrmTravel, straightLineTravel } from './travel'

/** Driving minutes: OSRM when `ROUTING_API_URL` is set, else the straight-line estimate. */
export function travelFromConfig(config: Config, logger: Logger): TravelTimes {
  if (!config.ROUTING_API_URL) return straightLineTravel
  return osrmTravel({ baseUrl: config.ROUTING_API_URL, timeoutMs: config.ROUTING_API_TIMEOUT_MS, logger })
}

/** Tutors' ICS feeds, fetched from the addresses `policy` allows and cached in Redis or this process; none when `CALENDAR_FEEDS=off`. */
export function busyCalendarFromConfig(config: Config, deps: { redis: Redis | undefined; logger: Logger; now: () => Date; policy: AddressPolicy }): BusyCalendar {
  if (config.CALENDAR_FEEDS === 'off') return noBusyCalendar
  return icsBusyCalendar({
    fetchText: (url) => fetchFeedText(url, { timeoutMs: config.CALENDAR_FETCH_TIMEOUT_MS, maxBytes: config.CALENDAR_MAX_BYTES, policy: deps.policy }),
    cache: deps.redis ? fallbackTextCache(deps.redis, 'calendar-feed:') : memoryTextCache(),
    ttlSeconds: config.CALENDAR_CACHE_SECONDS,
    logger: deps.logger,
    now: deps.now,
  })
}
