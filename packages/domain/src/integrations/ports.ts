import type { Outbox } from '../outbox'
import type { Actor, Clock, PageOf, PageRequest, UnitOfWork } from '../shared'
import type { ClaimedDelivery, WebhookDelivery, WebhookEndpoint, WebhookEventType, WebhookSubject } from './webhooks'

/**
 * The port every context's use cases call inside their unit of work when something an
 * integrator may hear of happens: the event and one delivery per matching endpoint are
 * written in the same transaction as the change (CONTRACT §16).
 */
export interface IntegrationEvents {
  /** For every enabled endpoint subscribed to `type` whose owner is one of `partyIds` or staff. */
  record(event: { type: WebhookEventType; subject: WebhookSubject; partyIds: readonly number[]; at: Date }): Promise<void>
  /** For this one endpoint, whatever it subscribes to (`webhook.test`). Answers the delivery. */
  recordFor(endpointId: number, event: { type: WebhookEventType; subject: WebhookSubject; at: Date }): Promise<WebhookDelivery>
}

export type NewWebhookEndpoint = Pick<WebhookEndpoint, 'ownerId' | 'url' | 'events' | 'description' | 'secret' | 'createdAt'>
export type WebhookEndpointPatch = Partial<Pick<WebhookEndpoint, 'url' | 'events' | 'description' | 'enabled' | 'secret' | 'failingSince'>>

export interface WebhookEndpointRepository {
  /** Holds the owner (their users row) until the transaction ends: the count of ten holds under concurrency. */
  lockOwner(ownerId: number): Promise<void>
  countByOwner(ownerId: number): Promise<number>
  insert(endpoint: NewWebhookEndpoint): Promise<WebhookEndpoint>
  findById(id: number): Promise<WebhookEndpoint | undefined>
  listByOwner(ownerId: number, page: PageRequest): Promise<PageOf<WebhookEndpoint>>
  update(id: number, patch: WebhookEndpointPatch): Promise<WebhookEndpoint>
  delete(id: number): Promise<void>
  /** After an attempt: a success clears `failingSince`, a failure sets it unless it is set. */
  noteAttempt(id: number, succeeded: boolean, at: Date): Promise<void>
  /** Enabled endpoints failing since `before` or earlier, with their owner's email; claimed FOR UPDATE SKIP LOCKED. */
  claimFailingSince(before: Date, limit: number): Promise<Array<WebhookEndpoint & { ownerEmail: string }>>
}

export type DeliveryOutcome = { status: WebhookDelivery['status']; lastStatusCode: number | null; lastError: string | null; nextAttemptAt: Date | null; at: Date }

export interface WebhookDeliveryRepository {
  listByEndpoint(endpointId: number, page: PageRequest): Promise<PageOf<WebhookDelivery>>
  findById(endpointId: number, id: number): Promise<WebhookDelivery | undefined>
  /** Makes the delivery due at `at` again (pending); answers it. */
  retryNow(id: number, at: Date): Promise<WebhookDelivery>
  /**
   * Claims due deliveries of enabled endpoints (FOR UPDATE SKIP LOCKED), counts the attempt
   * and moves their next attempt past the lease, so another instance skips them while this
   * one works and takes them over if it dies.
   */
  claimDue(now: Date, limit: number, leaseSeconds: number): Promise<ClaimedDelivery[]>
  saveBody(id: number, body: string): Promise<void>
  record(id: number, outcome: DeliveryOutcome): Promise<void>
}

/** What the receiver answered, or why there was no answer. */
export type SendResult = { statusCode: number | null; error: string | null }

/** POSTs one signed message (Standard Webhooks headers) within the time limit, behind the address guard. */
export interface WebhookSender {
  send(message: { url: string; secret: string; eventId: string; timestamp: Date; body: string }): Promise<SendResult>
}

/** Whether a URL may be an endpoint: the scheme and the addresses it resolves to. Answers the reason it may not. */
export interface EndpointUrlCheck {
  problem(url: string): Promise<string | null>
}

/** Fresh endpoint secrets: `whsec_` and base64 of at least 24 random bytes. */
export interface SecretGenerator {
  webhookSecret(): string
}

/** The resource an event names, as `owner` reads it from the API (the wire shape; the HTTP layer builds it). */
export interface WebhookPayloads {
  render(type: WebhookEventType, subject: WebhookSubject, owner: Actor): Promise<unknown>
}

export type IntegrationsRepos = {
  webhookEndpoints: WebhookEndpointRepository
  webhookDeliveries: WebhookDeliveryRepository
  integrationEvents: IntegrationEvents
  outbox: Outbox
}

export type IntegrationsDeps = {
  uow: UnitOfWork<IntegrationsRepos>
  clock: Clock
  secrets: SecretGenerator
  urls: EndpointUrlCheck
  sender: WebhookSender
  config: { leaseSeconds: number }
}
