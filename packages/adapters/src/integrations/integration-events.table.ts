export interface IntegrationEventsTable {
  /** `msg_` and 32 hex digits: the `webhook-id` of every delivery of the event. */
  id: string
  type: string
  subject_kind: 'booking' | 'review' | 'endpoint'
  subject_id: number
  occurred_at: Date
}
