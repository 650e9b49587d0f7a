export { fetchFeedText, FeedFetchFailed, type FeedFetchOptions } from './feed-fetch'
export { busyIntervalsOf, icsBusyCalendar, noBusyCalendar } from './ics-calendar'
export { fallbackTextCache, memoryTextCache, redisTextCache, type TextCache } from './text-cache'
