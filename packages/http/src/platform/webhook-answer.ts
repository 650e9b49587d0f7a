import { z } from '@hono/zod-openapi'

/** What every webhook receiver answers the sender (CONTRACT §8: handled, ignored and duplicate are all 200). */
export const WebhookAnswer = z.object({
  data: z.object({
    received: z.literal(true),
    outcome: z.enum(['handled', 'ignored', 'duplicate']),
    reason: z.string().nullable().openapi({ description: 'Why an event was ignored (e.g. unknown_type, unknown_reference); null otherwise' }),
  }),
})

export type WebhookOutcome = { outcome: 'handled' | 'duplicate' } | { outcome: 'ignored'; reason: string }

export const presentWebhookOutcome = (result: WebhookOutcome) => ({
  data: { received: true as const, outcome: result.outcome, reason: result.outcome === 'ignored' ? result.reason : null },
})
