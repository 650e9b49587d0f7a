import { z } from '@hono/zod-openapi'
import { recordPushCallback } from '@tutoring/domain/notifications'
import { jsonBody } from '../platform/json-body'
import { unwrap } from '../platform/respond'
import { commonProblems, jsonContent, mount, problemContent, type App } from '../platform/routes'
import type { Services } from '@tutoring/adapters'

/**
 * A push provider's delivery callback. Providers differ (Expo receipts, OneSignal and FCM
 * relays), so any JSON object is accepted; only these fields are read, the rest tolerated.
 */
const PushCallbackBody = z
  .object({
    id: z
      .union([z.string().min(1).max(255), z.number().int()])
      .optional()
      .openapi({ description: "The provider's receipt or event id; a repeated id is a duplicate" }),
    message_id: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .openapi({
        description: 'The message the receipt is about, as the provider named it when it accepted the push (FCM: the message name; Web Push: the Location of the created message).',
        example: 'projects/tutoring/messages/0:1700000000000000%abc',
      }),
    type: z.string().max(255).optional().openapi({ example: 'delivered' }),
    status: z.string().max(255).optional().openapi({ example: 'ok' }),
  })
  .openapi('PushCallback')

const PushCallbackAnswer = z.object({
  data: z.object({
    received: z.literal(true),
    recorded: z.boolean(),
    duplicate: z.boolean(),
    matched: z.number().int().openapi({ description: 'How many deliveries (one per device) of the named message took the receipt; 0 for an unknown message.' }),
  }),
})

export function pushNotificationRoutes(app: App, services: Services): void {
  mount(
    app,
    ['/api/v1/remote-push-notification'],
    {
      method: 'post',
      tags: ['Webhooks'],
      summary: "The push provider's delivery callback (no auth)",
      description: [
        'Any JSON object is acknowledged with 200. The status (`type`, else `status`, else `callback`) is recorded as the',
        'receipt of every device delivery of the message `message_id` names that is still pending (sent, no receipt yet;',
        '`matched` counts them), and the callback\'s `id` (string or integer) is remembered with it (`recorded: true`), so the',
        'same id again answers `duplicate: true` and changes nothing. A callback that changes no pending delivery (an unknown',
        'message, a receipt already given, no `message_id`) is answered alike and keeps nothing, not even its id; remembered',
        'ids are forgotten after 30 days. Other fields are accepted and not stored. Not JSON (or not sent as JSON): 400',
        '`malformed_request`; JSON that is not an object, or an `id` that is neither a non-empty string nor an integer: 422',
        '`validation_failed`.',
      ].join(' '),
      middleware: [jsonBody] as const,
      request: { body: { content: { 'application/json': { schema: PushCallbackBody } }, required: true } },
      responses: {
        200: jsonContent(PushCallbackAnswer, 'Acknowledged'),
        400: problemContent('malformed_request'),
        422: commonProblems[422],
        429: commonProblems[429],
      },
    },
    async (c) => {
      const body = c.req.valid('json')
      const outcome = await unwrap(
        recordPushCallback(services.notifications, {
          id: body.id === undefined ? null : String(body.id),
          type: body.type ?? body.status ?? 'callback',
          messageId: body.message_id ?? null,
        }),
      )
      return c.json({ data: { received: true as const, ...outcome } }, 200)
    },
  )
}
