import type { ColumnType, Generated, Selectable } from 'kysely'

export interface WebhookEndpointsTable {
  id: Generated<number>
  owner_id: number
  url: string
  /** The subscribed event types, a JSON array. */
  events: ColumnType<string[], string, string>
  description: string | null
  enabled: Generated<boolean>
  secret: string
  failing_since: Date | null
  created_at: Date
}
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>
