import type { Clock, UnitOfWork, WebhookEventLog } from '../shared'

export type NotificationsDeps = {
  uow: UnitOfWork<{ webhookEvents: WebhookEventLog }>
  clock: Clock
}
