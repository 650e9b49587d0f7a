import { z } from '@hono/zod-openapi'
import type { WebhookEventType } from '@tutoring/domain/integrations'
import type { Actor } from '@tutoring/domain/shared'
import type { App } from '../platform/routes'

/** A room's part of the webhook payloads: the resource an event names, as `owner` reads it from the API. */
export type WebhookData = (type: WebhookEventType, id: number, owner: Actor) => Promise<unknown>

const SIGNATURE_HEADERS = z.object({
  'webhook-id': z.string().openapi({ description: 'The event id (`msg_...`), the same on every retry: receivers drop a repeat by it.' }),
  'webhook-timestamp': z.string().openapi({ description: 'Unix seconds of this attempt; reject one far from your clock.' }),
  'webhook-signature': z.string().openapi({
    description:
      '`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the base64-decoded part of the secret after `whsec_` (Standard Webhooks; its libraries verify it). Several space-separated signatures may come while a secret is being rotated.',
  }),
})

/**
 * Documents one event type as an OpenAPI 3.1 `webhooks` entry: the POST an endpoint receives,
 * its Standard Webhooks headers and the body `{type, timestamp, data}`.
 */
export function describeWebhook(app: App, spec: { type: WebhookEventType; summary: string; data: z.ZodType }): void {
  app.openAPIRegistry.registerWebhook({
    method: 'post',
    path: spec.type,
    operationId: `webhook${spec.type.split(/[._]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')}`,
    // The receiver checks `webhook-signature`; no credential of this API is sent.
    security: [],
    tags: ['Integrations'],
    summary: spec.summary,
    description:
      'Sent to every enabled endpoint subscribed to this type whose owner is the tutor, the booker or the student of the booking (a staff user\'s endpoints get every event). A 2xx answer within 10 s is delivered; anything else is retried with backoff for 3 days with the same `webhook-id`. At least once, in no promised order. `data` is the resource as the endpoint\'s owner reads it from the API, as it stood at the first attempt; every retry sends the same body.',
    request: {
      headers: SIGNATURE_HEADERS,
      body: {
        content: {
          'application/json': {
            schema: z.object({
              type: z.literal(spec.type),
              timestamp: z.string().openapi({ description: 'When the event happened (RFC 3339).' }),
              data: spec.data,
            }),
          },
        },
        required: true,
      },
    },
    responses: { 200: { description: 'Any 2xx: delivered. Anything else, or no answer within 10 s: retried.' } },
  })
}
