import { z } from '@hono/zod-openapi'
import type { PaymentStatus } from '@tutoring/domain/booking'

/** Every status a payment can show, each once (the compiler holds the list to the domain's type). */
const STATUSES = {
  requires_payment_method: 'requires_payment_method',
  requires_confirmation: 'requires_confirmation',
  requires_action: 'requires_action',
  processing: 'processing',
  requires_capture: 'requires_capture',
  succeeded: 'succeeded',
  canceled: 'canceled',
  scheduled: 'scheduled',
} as const satisfies { [S in PaymentStatus]: S }

/** A payment's status, in a booking's receipt and in the pay answer: named once in the document. */
export const PaymentStatusEnum = z.enum(STATUSES).openapi('PaymentIntentStatus', {
  description: "The processor's PaymentIntent status, or `scheduled`: a saved card, to be authorised 6 days before the lesson. `requires_action` asks the customer for a step of their bank's (the answer's redirectURL).",
})
