import { z } from '@hono/zod-openapi'
import { html } from 'hono/html'
import { openBillingPortal, recordSubscriptionEvent, startSubscription } from '@tutoring/domain/subscriptions'
import { authApi, currentUser, signedLinkQuery, webApi } from '../platform/auth'
import { presentWebhookOutcome, WebhookAnswer } from '../platform/webhook-answer'
import { jsonBody, optionalJsonBody } from '../platform/json-body'
import { unwrap } from '../platform/respond'
import { bearer, commonProblems, jsonContent, mount, problemContent, processorProblems, type App } from '../platform/routes'
import { signatureHeaders, stripeSignature } from '../platform/stripe-signature'
import type { Services } from '@tutoring/adapters'
import { ProcessorEventBody } from '../payments'
import { PortalSchema, presentPortal, presentSubscription, SubscriptionBody, SubscriptionSchema, toSubscriptionEvent } from './subscriptions.schemas'

const tags = ['Subscriptions']

export function subscriptionRoutes(app: App, services: Services): void {
  const deps = services.subscriptions

  mount(
    app,
    ['/api/subscriptions'],
    {
      method: 'post',
      tags,
      summary: "Start the tutor's membership",
      description: [
        'web.api; tutors only (403 otherwise). The body is optional: none, an empty one or `{}` start the active plan;',
        '`{price_id}` names a plan by its processor price id',
        '(an unknown or retired one: 422 `errors.price_id`). Starts `trialing` for the plan\'s trial period (`incomplete`',
        "for a plan without one, until the first payment), answers 201; the processor's copy is made just after (outbox) and",
        'its webhook moves the status from then on. Registration already starts one for every tutor, so a tutor with a live',
        'subscription that has not ended gets that one back with 200 and nothing changes (a retry is harmless); one that',
        'ended (`incomplete_expired`) is closed and a new one starts. The answer names the product: `product_id`, `price_id`',
        'and `trial_period` (days).',
      ].join(' '),
      security: bearer,
      middleware: [webApi(services), optionalJsonBody] as const,
      request: { query: signedLinkQuery, body: { content: { 'application/json': { schema: SubscriptionBody } }, required: false } },
      responses: {
        ...processorProblems,
        200: jsonContent(z.object({ data: SubscriptionSchema }), 'The live subscription, unchanged'),
        201: jsonContent(z.object({ data: SubscriptionSchema }), 'Started'),
        400: problemContent('malformed_request'),
        ...commonProblems,
      },
    },
    async (c) => {
      const started = await unwrap(startSubscription(deps, currentUser(c), { priceId: c.req.valid('json').price_id }))
      return c.json({ data: presentSubscription(started.subscription) }, started.created ? 201 : 200)
    },
  )

  mount(
    app,
    ['/api/subscriptions/portal'],
    {
      method: 'get',
      tags,
      summary: 'Billing portal links',
      description: [
        '`{data: {actions: [{type: "update_payment_method", url}, {type: "cancel", url}]}}`: one processor billing portal',
        'session per action, each opening on its flow and returning to the app. With the offline processor the links lead',
        "to this service's own `/billing/offline-portal` page. A caller without a live subscription: 404.",
      ].join(' '),
      security: bearer,
      middleware: [authApi] as const,
      responses: { ...processorProblems, 200: jsonContent(z.object({ data: PortalSchema }), 'Portal links'), ...commonProblems },
    },
    async (c) => {
      const actions = await unwrap(openBillingPortal(deps, currentUser(c)))
      return c.json({ data: presentPortal(actions) }, 200)
    },
  )

  mount(
    app,
    ['/api/subscriptions/webhooks'],
    {
      method: 'post',
      tags: ['Webhooks'],
      summary: "The payment processor's subscription webhook",
      description: [
        'Verified by `Stripe-Signature` with `STRIPE_SUBSCRIPTION_WEBHOOK_SECRET` (not the payments secret), tolerance 300 s;',
        'missing, wrong or stale: 400 `invalid_signature`, nothing changes. `customer.subscription.created|updated|deleted`,',
        '`invoice.payment_failed` and `invoice.payment_succeeded` move the stored status by the domain\'s event map',
        '(`past_due` and `paused` read as `incomplete`, `unpaid` as `incomplete_expired`; a zero invoice during a trial keeps',
        '`trialing`). `canceled` soft-deletes the subscription. The subscription is found by the processor\'s id, or, before',
        "the processor's id is stored, as the customer's live subscription. Events about an ended subscription, unknown",
        'subscriptions and other types answer 200 `ignored`; a repeated event id answers 200 `duplicate` and changes nothing.',
      ].join(' '),
      middleware: [stripeSignature(services.infra.config.STRIPE_SUBSCRIPTION_WEBHOOK_SECRET, services.infra.clock), jsonBody] as const,
      request: { headers: signatureHeaders, body: { content: { 'application/json': { schema: ProcessorEventBody } }, required: true } },
      responses: {
        200: jsonContent(WebhookAnswer, 'Handled, ignored or duplicate'),
        400: problemContent('invalid_signature or malformed_request'),
        422: commonProblems[422],
        429: commonProblems[429],
      },
    },
    async (c) => {
      const result = await unwrap(recordSubscriptionEvent(deps, toSubscriptionEvent(c.req.valid('json'))))
      return c.json(presentWebhookOutcome(result), 200)
    },
  )

  mount(
    app,
    ['/billing/offline-portal'],
    {
      method: 'get',
      tags,
      summary: "The offline processor's stand-in for the billing portal (HTML)",
      description: 'Where the portal links point when no STRIPE_SECRET_KEY is set: a page saying which flow a real portal would open. Nothing changes here.',
      request: { query: z.object({ flow: z.enum(['payment_method_update', 'subscription_cancel']).optional(), customer: z.string().max(255).optional() }) },
      responses: { 200: { content: { 'text/html': { schema: z.string() } }, description: 'Page' }, 422: commonProblems[422] },
    },
    (c) => {
      const what = c.req.valid('query').flow === 'subscription_cancel' ? 'cancel your subscription' : 'update your payment method'
      return c.html(
        html`<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Billing portal (offline)</title></head>
  <body>
    <h1>Billing portal</h1>
    <p>This service runs without a payment processor, so there is no billing portal. With one configured, this link would let you ${what}.</p>
  </body>
</html>`,
        200,
      )
    },
  )
}
