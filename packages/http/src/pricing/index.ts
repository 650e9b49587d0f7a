// Price breakdowns as the availability, search and payment routes show them; no routes of its own.
export { PriceBreakdownSchema, SearchPriceBreakdownSchema, presentPriceBreakdown, presentSearchPriceBreakdown } from './pricing.schemas'
