/**
 * Side effects that must not be lost. A use case writes them in the same transaction as the
 * change that causes them; a worker delivers them after commit, at least once.
 */
export type EmailTemplate =
  | 'verify_email'
  | 'registered_internal'
  | 'reset_password'
  | 'user_deleted'
  | (string & {})

export type EmailMessage = {
  kind: 'email'
  template: EmailTemplate
  to: string
  data: Record<string, unknown>
  /** Same key, same message: a retry of the cause never sends twice. */
  dedupeKey?: string
}

export type PushMessage = {
  kind: 'push'
  userId: number
  title: string
  body: string
  data: Record<string, unknown>
  dedupeKey?: string
}

export type ProcessorSyncMessage = {
  kind: 'processor_sync'
  topic: string
  data: Record<string, unknown>
  dedupeKey?: string
}

export type OutboxMessage = EmailMessage | PushMessage | ProcessorSyncMessage

export interface Outbox {
  enqueue(message: OutboxMessage): Promise<void>
}
