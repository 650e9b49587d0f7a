export * from './busy'
export * from './compute-availability'
export * from './slot-check'
export * from './request'
export * from './ports'
export {
  loadAvailabilityInput,
  type AvailabilityQuery,
  type LoadedAvailability,
  type LoadAvailabilityError,
} from './load-availability-input'
export { checkSlotAvailability, slotAvailableIn, type SlotQuery } from './check-slot-availability'
export { getAvailability, type TeachAvailability } from './get-availability'
export { setCalendarFeed, normaliseFeedUrl, CALENDAR_FEED_URL_MAX } from './set-calendar-feed'
export { getCalendarFeed } from './get-calendar-feed'
export { searchAddresses, ADDRESS_SEARCH_LIMIT } from './search-addresses'
