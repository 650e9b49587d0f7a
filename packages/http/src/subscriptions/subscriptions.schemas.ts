import { z } from '@hono/zod-openapi'
import {
  SUBSCRIPTION_STATUSES,
  isSubscriptionValid,
  type PortalAction,
  type Subscription,
  type SubscriptionEventInput,
} from '@tutoring/domain/subscriptions'
import { parseEventObject, type ProcessorEvent } from '../payments'

export const SubscriptionBody = z
  .strictObject({ price_id: z.string().max(255).trim().min(1).optional().openapi({ description: 'A plan\'s processor price id; the active plan when absent' }) })
  .openapi('SubscriptionRequest')

/** SPEC's subscription statuses, named once: a subscription's and a tutor's (staff details). */
export const SubscriptionStatusSchema = z.enum(SUBSCRIPTION_STATUSES).openapi('SubscriptionStatus', { description: 'Valid (the tutor searchable and bookable) while trialing or active.' })

export const SubscriptionSchema = z
  .object({
    id: z.number().int(),
    status: SubscriptionStatusSchema,
    valid: z.boolean().openapi({ description: 'trialing or active' }),
    product_id: z.string().openapi({ description: "The processor's product id of the subscription's plan" }),
    price_id: z.string().openapi({ description: "The processor's price id of the subscription's plan" }),
    trial_period: z.number().int().openapi({ description: "The plan's trial period in days (0: none)" }),
    trial_ends_at: z.string().nullable(),
    current_period_end: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('Subscription')

export const presentSubscription = (s: Subscription): z.infer<typeof SubscriptionSchema> => ({
  id: s.id,
  status: s.status,
  valid: isSubscriptionValid(s.status),
  product_id: s.product.productId,
  price_id: s.product.priceId,
  trial_period: s.product.trialPeriodDays,
  trial_ends_at: s.trialEndsAt?.toISOString() ?? null,
  current_period_end: s.currentPeriodEnd?.toISOString() ?? null,
  created_at: s.createdAt.toISOString(),
})

export const PortalSchema = z
  .object({ actions: z.array(z.object({ type: z.enum(['update_payment_method', 'cancel']), url: z.string() })) })
  .openapi('BillingPortal')

export const presentPortal = (actions: PortalAction[]): z.infer<typeof PortalSchema> => ({ actions: actions.map((a) => ({ type: a.type, url: a.url })) })

const unix = z.number().int().nullish().transform((v) => (v ? new Date(v * 1000) : null))
const SubscriptionObject = z.object({
  id: z.string().min(1),
  customer: z.string().nullish(),
  status: z.string().min(1),
  trial_end: unix,
  items: z.object({ data: z.array(z.object({ current_period_end: unix })) }).optional(),
})
const InvoiceObject = z.object({
  customer: z.string().nullish(),
  amount_paid: z.number().int().min(0).default(0),
  // Older API versions name the subscription on the invoice; newer ones under parent.subscription_details.
  subscription: z.string().nullish(),
  parent: z.object({ subscription_details: z.object({ subscription: z.string().nullish() }).nullish() }).nullish(),
})

export function toSubscriptionEvent(event: ProcessorEvent): SubscriptionEventInput {
  const base = { id: event.id, type: event.type }
  if (event.type.startsWith('customer.subscription.')) {
    const s = parseEventObject(SubscriptionObject, event.data.object)
    return {
      ...base,
      subscription: { id: s.id, customerId: s.customer ?? null, status: s.status, trialEndsAt: s.trial_end, currentPeriodEnd: s.items?.data[0]?.current_period_end ?? null },
    }
  }
  if (event.type.startsWith('invoice.')) {
    const i = parseEventObject(InvoiceObject, event.data.object)
    return {
      ...base,
      invoice: { subscriptionId: i.subscription ?? i.parent?.subscription_details?.subscription ?? null, customerId: i.customer ?? null, amountPaidPence: i.amount_paid },
    }
  }
  return base
}
