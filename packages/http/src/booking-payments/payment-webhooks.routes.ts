import { recordPaymentEvent } from '@tutoring/domain/booking-payments'
import { jsonBody } from '../platform/json-body'
import { presentWebhookOutcome, WebhookAnswer } from '../platform/webhook-answer'
import { unwrap } from '../platform/respond'
import { commonProblems, jsonContent, mount, problemContent, type App } from '../platform/routes'
import { signatureHeaders, stripeSignature } from '../platform/stripe-signature'
import type { Services } from '@tutoring/adapters'
import { ProcessorEventBody } from '../payments'
import { toPaymentEvent } from './booking-payments.schemas'

export function paymentWebhookRoutes(app: App, services: Services): void {
  mount(
    app,
    ['/api/v1/payments/webhooks/accounts'],
    {
      method: 'post',
      tags: ['Webhooks'],
      summary: "The payment processor's webhook: payments, refunds, disputes, tutors' connected accounts and payouts",
      description: [
        'Verified by `Stripe-Signature` over the raw body with `STRIPE_WEBHOOK_SECRET`, tolerance 300 s either way; missing,',
        'wrong, outside the tolerance, or no secret configured: 400 `invalid_signature`, nothing changes. Handled:',
        '`payment_intent.amount_capturable_updated` (booking AWAITING_PAYMENT to REQUIRES_CAPTURE), `payment_intent.succeeded`',
        '(to PAYED, from AWAITING_PAYMENT or REQUIRES_CAPTURE), `payment_intent.payment_failed` and `payment_intent.canceled`',
        '(payment status and error only), `charge.succeeded` (amount captured) and `charge.failed` (the error, unless the',
        "payment went through since), `charge.refunded` (the payment's refunded total only; the booking's refund state",
        'belongs to the cancellation that asked for it), `charge.dispute.created` and `charge.dispute.closed` (the dispute',
        "shows in the booking's `receipt.payment.dispute`; staff are emailed when a dispute is first heard of),",
        "`account.updated` (a tutor's connected account: once payouts are enabled, the tutor's shares held for it go out as",
        'separate transfers, each once), `payout.paid` / `payout.failed` of a connected account (the tutor is emailed a',
        "failure) and `setup_intent.succeeded` (a far lesson's card setup confirmed after 3-D Secure: its booking is scheduled",
        "and committed, as the return page's refresh does). The payment is found by the `payment_id` in the object's metadata (which every intent made here carries),",
        'else by its payment intent id; an attempt authorised after it was superseded or its lesson cancelled is released at',
        "the processor and leaves the booking as it is. Each handled payment event adds a `payment.*` entry to the booking's",
        "timeline. Events apply in any order: a payment's status never moves back (a late",
        '`payment_intent.succeeded` after a refund changes nothing), totals only grow, a closed dispute stays closed, an',
        "account's older state (by the event's `created`) never overwrites a newer one; such an event answers 200 `ignored`",
        '`stale`. Every event id is remembered: a repeat answers 200 `duplicate` and changes nothing. Other types, unknown',
        'payment intents and unknown accounts answer 200 `ignored`.',
      ].join(' '),
      middleware: [stripeSignature(services.infra.config.STRIPE_WEBHOOK_SECRET, services.infra.clock), jsonBody] as const,
      request: { headers: signatureHeaders, body: { content: { 'application/json': { schema: ProcessorEventBody } }, required: true } },
      responses: {
        200: jsonContent(WebhookAnswer, 'Handled, ignored or duplicate'),
        400: problemContent('invalid_signature or malformed_request'),
        422: commonProblems[422],
        429: commonProblems[429],
      },
    },
    async (c) => {
      const result = await unwrap(recordPaymentEvent(services.bookings, toPaymentEvent(c.req.valid('json'))))
      return c.json(presentWebhookOutcome(result), 200)
    },
  )
}
