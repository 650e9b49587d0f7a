import type { BookingEventsTable, BookingSeriesTable, BookingsTable } from './bookings.table'
import type { CouponRedemptionsTable, CouponsTable } from './coupons.table'
import type { LessonRemindersTable } from './lesson-reminders.table'
import type { LessonChildrenTable, LessonsTable } from './lessons.table'
import type { TutorHoursTable } from './tutor-hours.table'

/** The booking context's tables, as Kysely sees them; `Database` joins every context's. */
export interface BookingTables {
  booking_events: BookingEventsTable
  booking_series: BookingSeriesTable
  bookings: BookingsTable
  coupon_redemptions: CouponRedemptionsTable
  coupons: CouponsTable
  lesson_children: LessonChildrenTable
  lesson_reminders: LessonRemindersTable
  lessons: LessonsTable
  tutor_hours: TutorHoursTable
}
