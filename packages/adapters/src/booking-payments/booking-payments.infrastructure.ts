import type { BookingConfig } from '@tutoring/domain/booking'
import type { BookingPaymentsConfig } from '@tutoring/domain/booking-payments'
import type { Config } from '../config'

/** The booking and booking-payment rules' settings, the same for the server, its jobs and the CLI. */
export const bookingConfigFromConfig = (config: Config, baseUrl: string): BookingConfig & BookingPaymentsConfig => ({
  holdMinutes: config.BOOKING_HOLD_MINUTES,
  serviceFeePercent: config.SERVICE_FEE_PERCENT,
  meetingBaseUrl: config.MEETING_BASE_URL,
  reminderOffsetsMinutes: config.LESSON_REMINDERS,
  paymentReturnUrl: `${baseUrl}/api/payments/return`,
  paymentActionUrl: config.PAYMENT_ACTION_URL ?? `${baseUrl}/api/payments/return`,
  internalMailbox: config.INTERNAL_MAILBOX,
})
