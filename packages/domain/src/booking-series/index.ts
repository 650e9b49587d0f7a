export { cancelBookingSeries } from './cancel-booking-series'
export { type BookingSeriesDetail, getBookingSeries } from './get-booking-series'
