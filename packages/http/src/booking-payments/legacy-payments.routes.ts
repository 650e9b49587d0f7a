import { z } from '@hono/zod-openapi'
import { BOOKING_STATES, type BookingPayment } from '@tutoring/domain/booking'
import { changePaymentMethod, getPayment, listPayments, releasePayment } from '@tutoring/domain/booking-payments'
import { CURRENCY, formatPence, isInternal, type Actor } from '@tutoring/domain/shared'
import type { Services } from '@tutoring/adapters'
import { authApi, currentUser } from '../platform/auth'
import { IDEMPOTENCY_DESCRIPTION, idempotencyHeaders, idempotent } from '../platform/idempotency'
import { jsonBody } from '../platform/json-body'
import { listOf, meta, one } from '../platform/pagination'
import { unwrap } from '../platform/respond'
import { bearer, commonProblems, jsonContent, mount, problemContent, type App } from '../platform/routes'
import { BookingStateSchema, idParam, listQuery } from '../booking'
import { PaymentStatusEnum } from '../platform/payment-status'
import { PayBody, payFor } from './booking-payments.schemas'

const tags = ['Payments']

export const LegacyPaymentSchema = z
  .object({
    id: z.number().int(),
    booking_id: z.number().int(),
    status: PaymentStatusEnum,
    amount: z.string().openapi({ example: '33.00' }),
    currency: z.string().openapi({ example: 'GBP' }),
    created_at: z.string(),
    client_secret: z.string().nullable().openapi({ description: 'For the payer (or staff) only; null for the tutor' }),
    redirectURL: z.string().nullable().openapi({ description: 'Where the payer completes 3-D Secure, while the payment requires action' }),
  })
  .openapi('LegacyPayment')

const presentLegacyPayment = (p: BookingPayment, actor: Actor): z.infer<typeof LegacyPaymentSchema> => {
  const payer = p.userId === actor.id || isInternal(actor.roleId)
  return {
    id: p.id,
    booking_id: p.bookingId,
    status: p.status,
    amount: formatPence(p.amountPence),
    currency: CURRENCY.code,
    created_at: p.createdAt.toISOString(),
    client_secret: payer ? p.clientSecret : null,
    redirectURL: payer && p.status === 'requires_action' ? p.redirectUrl : null,
  }
}

/** POST answers what POST /api/payments/pay answers (its `payment_id`, `booking_state`), plus the payment as `id`. */
const LegacyPayAnswer = LegacyPaymentSchema.extend({ payment_id: z.number().int(), booking_state: BookingStateSchema }).openapi('LegacyPayAnswer')

const MethodBody = z
  .strictObject({
    payment_method: z.string().max(255).trim().min(3).regex(/^pm_[A-Za-z0-9_]+$/, 'must be a processor payment method id (pm_...)').openapi({ example: 'pm_card_visa' }),
  })
  .openapi('PaymentMethodChange')

/** The legacy `/api/v1/payments` family (CONTRACT §14), on the same use cases as the current routes. */
export function legacyPaymentRoutes(app: App, services: Services): void {
  const deps = services.bookings

  mount(
    app,
    ['/api/v1/payments'],
    {
      method: 'get',
      tags,
      summary: 'Your payments (legacy)',
      description: "The caller's payments as payer, newest first; staff see every payment. Paginated.",
      security: bearer,
      middleware: [authApi] as const,
      request: { query: listQuery },
      responses: { 200: jsonContent(listOf(LegacyPaymentSchema), 'Payments'), ...commonProblems },
    },
    async (c) => {
      const { page, per_page } = c.req.valid('query')
      const actor = currentUser(c)
      const found = await unwrap(listPayments(deps, actor, { page, perPage: per_page }))
      return c.json({ data: found.items.map((p) => presentLegacyPayment(p, actor)), meta: meta(found.total, { page, per_page }) }, 200)
    },
  )

  mount(
    app,
    ['/api/v1/payments'],
    {
      method: 'post',
      tags,
      summary: 'Pay for a booking (legacy)',
      description: ['Takes and answers what POST /api/payments/pay does, with the payment as `id`.', IDEMPOTENCY_DESCRIPTION].join('\n\n'),
      security: bearer,
      middleware: [authApi, idempotent(services), jsonBody] as const,
      request: { headers: idempotencyHeaders, body: { content: { 'application/json': { schema: PayBody } }, required: true } },
      responses: {
        200: jsonContent(one(LegacyPayAnswer), 'The payment'),
        402: problemContent('payment_failed'),
        409: problemContent('invalid_state_transition, idempotency_key_in_flight'),
        ...commonProblems,
      },
    },
    async (c) => {
      const body = c.req.valid('json')
      const actor = currentUser(c)
      const outcome = await unwrap(payFor(deps, actor, body))
      const payment = presentLegacyPayment(outcome.payment, actor)
      return c.json({ data: { ...payment, payment_id: payment.id, booking_state: BOOKING_STATES[outcome.booking.booking.state] } }, 200)
    },
  )

  mount(
    app,
    ['/api/v1/payments/{id}'],
    {
      method: 'get',
      tags,
      summary: 'A payment (legacy)',
      description: "To its payer, the lesson's tutor (without the client secret) and staff; anyone else 404.",
      security: bearer,
      middleware: [authApi] as const,
      request: { params: idParam },
      responses: { 200: jsonContent(one(LegacyPaymentSchema), 'The payment'), ...commonProblems },
    },
    async (c) => {
      const actor = currentUser(c)
      const payment = await unwrap(getPayment(deps, actor, c.req.valid('param').id))
      return c.json({ data: presentLegacyPayment(payment, actor) }, 200)
    },
  )

  mount(
    app,
    ['/api/v1/payments/{id}'],
    {
      method: 'put',
      tags,
      summary: "Replace a payment's method and try again (legacy)",
      description: [
        'The payer (or staff). A payment `scheduled` for a later authorisation takes the new card (attached to the customer now: a refused card is 422) and keeps its id.',
        'A payment not yet authorised, or whose authorisation failed (`requires_payment_method`, `requires_confirmation`, `requires_action`), is tried again with the new method as POST /api/payments/pay would, under the same rules (402 on a decline, 409 once the hold lapsed); the answer is the new attempt, with its own `id`, and the replaced attempt is released.',
        "Any other payment holds or took money: 409 `invalid_state_transition`. The lesson's tutor: 403; anyone else 404.",
      ].join(' '),
      security: bearer,
      middleware: [authApi, jsonBody] as const,
      request: { params: idParam, body: { content: { 'application/json': { schema: MethodBody } }, required: true } },
      responses: {
        200: jsonContent(one(LegacyPaymentSchema), 'The payment tried again'),
        402: problemContent('payment_failed'),
        409: problemContent('invalid_state_transition'),
        ...commonProblems,
      },
    },
    async (c) => {
      const actor = currentUser(c)
      const payment = await unwrap(changePaymentMethod(deps, actor, { paymentId: c.req.valid('param').id, paymentMethod: c.req.valid('json').payment_method }))
      return c.json({ data: presentLegacyPayment(payment, actor) }, 200)
    },
  )

  mount(
    app,
    ['/api/v1/payments/{id}'],
    {
      method: 'delete',
      tags,
      summary: 'Release an uncaptured authorisation (legacy)',
      description: [
        'The payer (or staff). An attempt never completed (`requires_payment_method`, `requires_confirmation`, `requires_action`) is cancelled at the processor; the booking stays payable.',
        "An authorisation the booking counts on (`requires_capture`, or `scheduled`) is released by cancelling the booking under the cancellation policy, as PUT /api/bookings/{id}/cancel by the same caller would (a late customer cancellation keeps part). Answers the payment as it is then (200); one already released answers as it is.",
        "Captured (`succeeded`): 409 `invalid_state_transition` (refunds come from cancelling the booking). The lesson's tutor: 403; anyone else 404.",
      ].join(' '),
      security: bearer,
      middleware: [authApi] as const,
      request: { params: idParam },
      responses: { 200: jsonContent(one(LegacyPaymentSchema), 'The payment'), 409: problemContent('invalid_state_transition'), ...commonProblems },
    },
    async (c) => {
      const actor = currentUser(c)
      const payment = await unwrap(releasePayment(deps, actor, c.req.valid('param').id))
      return c.json({ data: presentLegacyPayment(payment, actor) }, 200)
    },
  )
}
