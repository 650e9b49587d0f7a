import type { Actor } from '../shared'

/** CONTRACT §16: the event types an endpoint may subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  'booking.created',
  'booking.paid',
  'booking.cancelled',
  'lesson.reschedule_proposed',
  'lesson.rescheduled',
  'lesson.completed',
  'payment.refunded',
  'review.created',
  'webhook.test',
] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

export const isWebhookEventType = (value: string): value is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value)

/** CONTRACT §16: at most this many endpoints per user. */
export const MAX_WEBHOOK_ENDPOINTS = 10

/**
 * What an event is about; its payload is that resource as the endpoint's owner reads it from
 * the API. Booking, lesson and payment events name the booking (whose detail holds the lesson
 * and the receipt); `webhook.test` names the endpoint itself.
 */
export type WebhookSubject = { kind: 'booking'; id: number } | { kind: 'review'; id: number } | { kind: 'endpoint'; id: number }

export type WebhookEndpoint = {
  id: number
  ownerId: number
  url: string
  events: WebhookEventType[]
  description: string | null
  enabled: boolean
  /** Shown only when it is made (create, rotate); never read back otherwise. */
  secret: string
  /** Since when every attempt has failed; null after a success. */
  failingSince: Date | null
  createdAt: Date
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failing' | 'failed'

export type WebhookDelivery = {
  id: number
  endpointId: number
  eventId: string
  type: WebhookEventType
  status: DeliveryStatus
  attempts: number
  lastStatusCode: number | null
  nextAttemptAt: Date | null
  createdAt: Date
}

/** A delivery claimed by one worker, with what sending it needs. */
export type ClaimedDelivery = WebhookDelivery & {
  endpoint: Pick<WebhookEndpoint, 'id' | 'url' | 'secret'> & { owner: Actor; ownerEmail: string }
  subject: WebhookSubject
  /** When the event happened: the payload's `timestamp`. */
  occurredAt: Date
  /** The body sent on the first attempt, kept so every retry sends the same bytes; null before. */
  body: string | null
}
