import type { Generated, Selectable } from 'kysely'

export interface WebhookDeliveriesTable {
  id: Generated<number>
  event_id: string
  endpoint_id: number
  status: Generated<'pending' | 'succeeded' | 'failing' | 'failed'>
  attempts: Generated<number>
  last_status_code: number | null
  last_error: string | null
  /** When the worker may take it next; null once it succeeded or failed for good. */
  next_attempt_at: Date | null
  /** The request body of the first attempt, sent again by every retry. */
  body: string | null
  created_at: Date
  last_attempt_at: Date | null
}
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>
