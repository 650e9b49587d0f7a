import type { AccessTokensTable } from '../accounts/access-tokens.table'
import type { AddressesTable } from '../profiles/addresses.table'
import type { BankAccountsTable } from '../payments/bank-accounts.table'
import type { CardsTable } from '../payments/cards.table'
import type { ChildrenTable } from '../profiles/children.table'
import type { EducationTable } from '../profiles/education.table'
import type { FilesTable } from '../files/files.table'
import type { MobileNumbersTable } from '../profiles/mobile-numbers.table'
import type {
  OfflineAccountsTable,
  OfflinePaymentIntentsTable,
  OfflinePaymentMethodsTable,
  OfflineProcessorRequestsTable,
  OfflineRefundsTable,
  OfflineSetupIntentsTable,
  OfflineTransfersTable,
} from '../payments/offline-processor.table'
import type { OutboxTable } from '../outbox/outbox.table'
import type { PasswordResetsTable } from '../accounts/password-resets.table'
import type { PushDeliveriesTable } from '../notifications/push-deliveries.table'
import type { PersonalDetailsTable } from '../profiles/personal-details.table'
import type { ProfessionsTable } from '../profiles/professions.table'
import type { ProfilesTable } from '../profiles/profiles.table'
import type {
  CancellationPoliciesTable,
  CountriesTable,
  ExamBoardsTable,
  LanguagesTable,
  LessonLocationsTable,
  LessonPriceSettingsTable,
  ServiceNoticesTable,
  SubjectLevelsTable,
  SubjectSubjectLevelsTable,
  SubjectsTable,
  UserLanguagesTable,
} from '../catalog/reference-data.table'
import type { SocialLinksTable } from '../profiles/social-links.table'
import type { SubscriptionPlansTable, SubscriptionsTable } from '../subscriptions/subscriptions.table'
import type { UserDevicesTable } from '../profiles/user-devices.table'
import type { UsersTable } from '../accounts/users.table'
import type { VerificationsTable } from '../verification/verifications.table'
import type { WebhookEventsTable } from '../webhooks/webhook-events.table'
import type { TeachExamBoardsTable, TeachSubjectLevelsTable, TeachesTable } from '../teaching/teaches.table'
import type { DayAvailabilitiesTable, DayAvailabilitySlotsTable } from '../schedule/day-availabilities.table'
import type { LocationsTable } from '../schedule/locations.table'
import type { HolidaysTable } from '../schedule/holidays.table'
import type { LessonChildrenTable, LessonsTable } from '../booking/lessons.table'
import type { BookingEventsTable, BookingsTable } from '../booking/bookings.table'
import type { PaymentsTable } from '../booking-payments/payments.table'
import type { PayoutAccountsTable, TutorPayoutsTable, TutorTransfersTable } from '../booking-payments/tutor-transfers.table'
import type { IdempotencyKeysTable } from './idempotency-keys.table'
import type { CouponRedemptionsTable, CouponsTable } from '../booking/coupons.table'
import type { NoteFilesTable, NotesTable, ReviewsTable } from '../booking/notes.table'
import type { PostcodeAddressesTable, PostcodesTable } from '../geo/postcodes.table'
import type { TutorSearchTable } from '../search/tutor-search.table'
import type { TutorSearchOnlineTable } from '../search/tutor-search-online.table'
import type { TutorRatingsTable } from '../booking/tutor-ratings.table'

/** Every table Kysely may touch. Each context adds its tables here as it lands. */
export interface Database {
  access_tokens: AccessTokensTable
  addresses: AddressesTable
  bank_accounts: BankAccountsTable
  cancellation_policies: CancellationPoliciesTable
  cards: CardsTable
  children: ChildrenTable
  countries: CountriesTable
  education: EducationTable
  exam_boards: ExamBoardsTable
  files: FilesTable
  languages: LanguagesTable
  lesson_locations: LessonLocationsTable
  lesson_price_settings: LessonPriceSettingsTable
  mobile_numbers: MobileNumbersTable
  offline_accounts: OfflineAccountsTable
  offline_payment_intents: OfflinePaymentIntentsTable
  offline_payment_methods: OfflinePaymentMethodsTable
  offline_processor_requests: OfflineProcessorRequestsTable
  offline_refunds: OfflineRefundsTable
  offline_setup_intents: OfflineSetupIntentsTable
  offline_transfers: OfflineTransfersTable
  outbox: OutboxTable
  password_resets: PasswordResetsTable
  personal_details: PersonalDetailsTable
  professions: ProfessionsTable
  profiles: ProfilesTable
  push_deliveries: PushDeliveriesTable
  service_notices: ServiceNoticesTable
  social_links: SocialLinksTable
  subject_levels: SubjectLevelsTable
  subject_subject_levels: SubjectSubjectLevelsTable
  subjects: SubjectsTable
  subscription_plans: SubscriptionPlansTable
  subscriptions: SubscriptionsTable
  user_devices: UserDevicesTable
  user_languages: UserLanguagesTable
  users: UsersTable
  verifications: VerificationsTable
  webhook_events: WebhookEventsTable
  teaches: TeachesTable
  teach_subject_levels: TeachSubjectLevelsTable
  teach_exam_boards: TeachExamBoardsTable
  day_availabilities: DayAvailabilitiesTable
  day_availability_slots: DayAvailabilitySlotsTable
  locations: LocationsTable
  holidays: HolidaysTable
  lessons: LessonsTable
  lesson_children: LessonChildrenTable
  bookings: BookingsTable
  booking_events: BookingEventsTable
  payments: PaymentsTable
  payout_accounts: PayoutAccountsTable
  tutor_transfers: TutorTransfersTable
  tutor_payouts: TutorPayoutsTable
  idempotency_keys: IdempotencyKeysTable
  coupons: CouponsTable
  coupon_redemptions: CouponRedemptionsTable
  notes: NotesTable
  note_files: NoteFilesTable
  reviews: ReviewsTable
  postcodes: PostcodesTable
  postcode_addresses: PostcodeAddressesTable
  tutor_search: TutorSearchTable
  tutor_search_online: TutorSearchOnlineTable
  tutor_ratings: TutorRatingsTable
}
