import { z } from '@hono/zod-openapi'
import type { BookingSeriesDetail } from '@tutoring/domain/booking-series'
import type { MediaUrls } from '../platform/media-urls'
import { BookingSchema, presentBooking } from '../booking'

export const BookingSeriesSchema = z
  .object({
    id: z.number().int(),
    weeks: z.number().int(),
    bookings: z.array(BookingSchema).openapi({ description: "Every week's booking detail, first week first." }),
  })
  .openapi('BookingSeries')

export const presentBookingSeries = (s: BookingSeriesDetail, urls: MediaUrls): z.infer<typeof BookingSeriesSchema> => ({
  id: s.id,
  weeks: s.weeks,
  bookings: s.bookings.map((b) => presentBooking(b, urls)),
})
