import type { Clock, UnitOfWork, WebhookEventLog } from '../shared'

/** The pushes that went out, one per device reached, as the outbox worker recorded them. */
export interface PushDeliveryLog {
  /**
   * Notes a provider's receipt on every delivery of the message with this provider id that
   * is still pending (sent, no receipt yet); answers how many took it (0 for a message this
   * service never sent, or whose deliveries have their receipt).
   */
  recordReceipt(providerMessageId: string, status: string, at: Date): Promise<number>
}

export type NotificationsRepos = { webhookEvents: WebhookEventLog; pushDeliveries: PushDeliveryLog }

export type NotificationsDeps = {
  uow: UnitOfWork<NotificationsRepos>
  clock: Clock
}
