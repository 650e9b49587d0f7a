/**
 * Inbound webhook deliveries already seen (CONTRACT.md §8: a duplicate changes nothing).
 * Written in the transaction of the change the event causes, so a crash loses neither.
 */
export type InboundEvent = { source: string; eventId: string; type: string; receivedAt: Date }

export interface WebhookEventLog {
  /** False when this source already delivered this event id. */
  record(event: InboundEvent): Promise<boolean>
}
