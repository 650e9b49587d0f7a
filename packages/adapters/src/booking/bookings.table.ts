import type { Generated, JSONColumnType, Selectable } from 'kysely'

export interface BookingsTable {
  id: Generated<number>
  lesson_id: number
  /** Who booked: the owner of the booking. */
  user_id: number
  /** REFUNDED 0, PAYED 1, AWAITING_PAYMENT 3, PARTIAL_REFUNDED 4, REQUIRES_CAPTURE 5 */
  state: Generated<number>
  hold_expires_at: Date | null
  lesson_price_pence: number
  service_fee_pence: number
  discount_pence: Generated<number>
  total_pence: number
  refunded_pence: Generated<number>
  coupon_uid: string | null
  /** The booker's note to the tutor (PUT /api/bookings/{id}). */
  note: Generated<string | null>
  created_at: Generated<Date>
  updated_at: Generated<Date>
  /** The weekly series this booking is a week of (CONTRACT §16), and which week (from 1). */
  series_id: Generated<number | null>
  series_position: Generated<number | null>
}
export interface BookingSeriesTable {
  id: Generated<number>
  /** Who booked the series. */
  user_id: number
  weeks: number
  created_at: Date
}
export interface BookingEventsTable {
  id: Generated<number>
  booking_id: number
  kind: string
  actor_id: number | null
  data: JSONColumnType<Record<string, unknown>, string | undefined, string>
  created_at: Generated<Date>
}
export type BookingRow = Selectable<BookingsTable>
