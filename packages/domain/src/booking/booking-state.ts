/** SPEC.md "Booking state": stored as numbers, named everywhere else. */
export const BOOKING_STATES = {
  REFUNDED: 0,
  PAYED: 1,
  AWAITING_PAYMENT: 3,
  PARTIAL_REFUNDED: 4,
  REQUIRES_CAPTURE: 5,
} as const
export type BookingState = keyof typeof BOOKING_STATES

export const BOOKING_STATE_NAMES: readonly BookingState[] = [
  'REFUNDED',
  'PAYED',
  'AWAITING_PAYMENT',
  'PARTIAL_REFUNDED',
  'REQUIRES_CAPTURE',
]

export const bookingStateOf = (value: number): BookingState | undefined =>
  BOOKING_STATE_NAMES.find((name) => BOOKING_STATES[name] === value)
