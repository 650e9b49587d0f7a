import type { AccountsTables } from '../accounts/accounts.tables'
import type { BookingPaymentsTables } from '../booking-payments/booking-payments.tables'
import type { BookingTables } from '../booking/booking.tables'
import type { CatalogTables } from '../catalog/catalog.tables'
import type { FilesTables } from '../files/files.tables'
import type { GeoTables } from '../geo/postcodes.table'
import type { IntegrationsTables } from '../integrations/integrations.tables'
import type { NotesTables } from '../notes/notes.tables'
import type { NotificationsTables } from '../notifications/notifications.tables'
import type { OutboxTables } from '../outbox/outbox.tables'
import type { PaymentsTables } from '../payments/payments.tables'
import type { ProfilesTables } from '../profiles/profiles.tables'
import type { ReviewsTables } from '../reviews/reviews.tables'
import type { ScheduleTables } from '../schedule/schedule.tables'
import type { SearchTables } from '../search/search.tables'
import type { SubscriptionsTables } from '../subscriptions/subscriptions.tables'
import type { TeachingTables } from '../teaching/teaching.tables'
import type { VerificationTables } from '../verification/verification.tables'
import type { WebhooksTables } from '../webhooks/webhooks.tables'
import type { IdempotencyTables } from './idempotency-keys.table'

/**
 * Every table Kysely may touch: each context's `<context>.tables.ts` names its own, and a new
 * table is a line there. A new context (or platform store) is one more member here.
 */
export interface Database
  extends AccountsTables,
    CatalogTables,
    ProfilesTables,
    FilesTables,
    NotificationsTables,
    VerificationTables,
    PaymentsTables,
    SubscriptionsTables,
    TeachingTables,
    ScheduleTables,
    SearchTables,
    BookingTables,
    NotesTables,
    ReviewsTables,
    BookingPaymentsTables,
    OutboxTables,
    WebhooksTables,
    IntegrationsTables,
    IdempotencyTables,
    GeoTables {}
