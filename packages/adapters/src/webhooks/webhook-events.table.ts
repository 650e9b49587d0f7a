import type { Generated } from 'kysely'

export interface WebhookEventsTable {
  source: string
  event_id: string
  type: string
  received_at: Generated<Date>
}
