import type { AccessTokensTable } from './tables/access-tokens.table'
import type { AddressesTable } from './tables/addresses.table'
import type { BankAccountsTable } from './tables/bank-accounts.table'
import type { CardsTable } from './tables/cards.table'
import type { ChildrenTable } from './tables/children.table'
import type { EducationTable } from './tables/education.table'
import type { FilesTable } from './tables/files.table'
import type { MobileNumbersTable } from './tables/mobile-numbers.table'
import type {
  OfflineAccountsTable,
  OfflinePaymentIntentsTable,
  OfflinePaymentMethodsTable,
  OfflineProcessorRequestsTable,
  OfflineRefundsTable,
  OfflineSetupIntentsTable,
  OfflineTransfersTable,
} from './tables/offline-processor.table'
import type { OutboxTable } from './tables/outbox.table'
import type { PasswordResetsTable } from './tables/password-resets.table'
import type { PushDeliveriesTable } from './tables/push-deliveries.table'
import type { PersonalDetailsTable } from './tables/personal-details.table'
import type { ProfessionsTable } from './tables/professions.table'
import type { ProfilesTable } from './tables/profiles.table'
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
} from './tables/reference-data.table'
import type { SocialLinksTable } from './tables/social-links.table'
import type { SubscriptionPlansTable, SubscriptionsTable } from './tables/subscriptions.table'
import type { UserDevicesTable } from './tables/user-devices.table'
import type { UsersTable } from './tables/users.table'
import type { VerificationsTable } from './tables/verifications.table'
import type { WebhookEventsTable } from './tables/webhook-events.table'
import type { TeachExamBoardsTable, TeachSubjectLevelsTable, TeachesTable } from './tables/teaches.table'
import type { DayAvailabilitiesTable, DayAvailabilitySlotsTable } from './tables/day-availabilities.table'
import type { LocationsTable } from './tables/locations.table'
import type { HolidaysTable } from './tables/holidays.table'
import type { LessonChildrenTable, LessonsTable } from './tables/lessons.table'
import type { BookingEventsTable, BookingsTable } from './tables/bookings.table'
import type { PaymentsTable } from './tables/payments.table'
import type { PayoutAccountsTable, TutorPayoutsTable, TutorTransfersTable } from './tables/tutor-payouts.table'
import type { IdempotencyKeysTable } from './tables/idempotency-keys.table'
import type { CouponRedemptionsTable, CouponsTable } from './tables/coupons.table'
import type { NoteFilesTable, NotesTable, ReviewsTable } from './tables/notes.table'
import type { PostcodeAddressesTable, PostcodesTable } from './tables/postcodes.table'
import type { TutorSearchTable } from './tables/tutor-search.table'
import type { TutorSearchOnlineTable } from './tables/tutor-search-online.table'
import type { TutorRatingsTable } from './tables/tutor-ratings.table'

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
