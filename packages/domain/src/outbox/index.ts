export type { EmailMessage, EmailTemplate, Outbox, OutboxMessage, ProcessorSyncMessage, PushMessage } from './outbox-message'
