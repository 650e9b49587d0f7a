import type { IntegrationEventsTable } from './integration-events.table'
import type { WebhookDeliveriesTable } from './webhook-deliveries.table'
import type { WebhookEndpointsTable } from './webhook-endpoints.table'

/** The integrations context's tables, as Kysely sees them; `Database` joins every context's. */
export interface IntegrationsTables {
  webhook_endpoints: WebhookEndpointsTable
  integration_events: IntegrationEventsTable
  webhook_deliveries: WebhookDeliveriesTable
}
