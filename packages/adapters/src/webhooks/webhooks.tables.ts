import type { WebhookEventsTable } from './webhook-events.table'

/** The webhooks context's tables, as Kysely sees them; `Database` joins every context's. */
export interface WebhooksTables {
  webhook_events: WebhookEventsTable
}
