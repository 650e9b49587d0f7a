import { z } from '@hono/zod-openapi'
import { WEBHOOK_EVENT_TYPES, type WebhookDelivery, type WebhookEndpoint, type WebhookEndpointChange, type WebhookEndpointInput } from '@tutoring/domain/integrations'
import { paginationQuery } from '../platform/pagination'

const idIn = (name: string) => z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).openapi({ param: { name, in: 'path' } })
export const endpointParam = z.object({ id: idIn('id') })
export const deliveryParam = z.object({ id: idIn('id'), delivery_id: idIn('delivery_id') })
export const listQuery = z.object(paginationQuery)

const EVENT_TYPE_DESCRIPTION = `One of ${WEBHOOK_EVENT_TYPES.map((t) => `\`${t}\``).join(', ')}; any other is a 422 on \`events.N\`.`
// Strings, not an enum, so an unknown type is the domain's 422 on its index rather than zod's wording.
const eventTypes = z.array(z.string().max(64)).max(WEBHOOK_EVENT_TYPES.length * 2).openapi({ description: EVENT_TYPE_DESCRIPTION, example: ['booking.created', 'booking.cancelled'] })
const url = z.string().max(2048).trim().min(1).openapi({ format: 'uri', example: 'https://crm.example.com/hooks/tutoring' })
const description = z.string().max(500).trim()

export const EndpointBody = z
  .strictObject({ url, events: eventTypes, description: description.nullish() })
  .openapi('WebhookEndpointRequest')
export const EndpointUpdateBody = z
  .strictObject({ url: url.optional(), events: eventTypes.optional(), description: description.nullish(), enabled: z.boolean().optional() })
  .openapi('WebhookEndpointUpdateRequest')

export const toEndpointInput = (body: z.infer<typeof EndpointBody>): WebhookEndpointInput => ({ url: body.url, events: body.events, description: body.description ?? null })
export const toEndpointChange = (body: z.infer<typeof EndpointUpdateBody>): WebhookEndpointChange => ({
  url: body.url,
  events: body.events,
  description: body.description,
  enabled: body.enabled,
})

export const EndpointSchema = z
  .object({
    id: z.number().int(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    description: z.string().nullable(),
    enabled: z.boolean(),
    secret: z.string().nullable().openapi({
      description: '`whsec_` and the base64 of 32 random bytes: the key of every `webhook-signature` (Standard Webhooks). Answered by create and rotate-secret only; `null` everywhere else.',
      example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    }),
    created_at: z.string(),
  })
  .openapi('WebhookEndpoint')

/** `withSecret` only where CONTRACT §16 shows it: the answers of create and rotate-secret. */
export const presentEndpoint = (e: WebhookEndpoint, withSecret = false): z.infer<typeof EndpointSchema> => ({
  id: e.id,
  url: e.url,
  events: e.events,
  description: e.description,
  enabled: e.enabled,
  secret: withSecret ? e.secret : null,
  created_at: e.createdAt.toISOString(),
})

export const DeliverySchema = z
  .object({
    id: z.number().int(),
    event_id: z.string().openapi({ description: 'The `webhook-id` header: the same on every attempt of the event.', example: 'msg_5f0c8a4e0b7c4f3c9a3f1b2d4e6a8c0f' }),
    type: z.enum(WEBHOOK_EVENT_TYPES),
    status: z.enum(['pending', 'succeeded', 'failing', 'failed']).openapi({
      description: '`pending` before its first attempt (or after a manual retry), `failing` while retries go on, `succeeded` after a 2xx, `failed` once retried for 3 days.',
    }),
    attempts: z.number().int(),
    last_status_code: z.number().int().nullable().openapi({ description: "The receiver's status code at the last attempt; null before one, or when it did not answer." }),
    next_attempt_at: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('WebhookDelivery')

export const presentDelivery = (d: WebhookDelivery): z.infer<typeof DeliverySchema> => ({
  id: d.id,
  event_id: d.eventId,
  type: d.type,
  status: d.status,
  attempts: d.attempts,
  last_status_code: d.lastStatusCode,
  next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
  created_at: d.createdAt.toISOString(),
})
