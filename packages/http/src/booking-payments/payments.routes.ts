import { z } from '@hono/zod-openapi'
import { BOOKING_STATES, checkCoupon, listCoupons } from '@tutoring/domain/booking'
import { getBookingPaymentStatus, getPaymentStatus } from '@tutoring/domain/booking-payments'
import { formatPence } from '@tutoring/domain/shared'
import { PriceBreakdownSchema, presentPriceBreakdown } from '../pricing'
import { authApi, currentUser } from '../platform/auth'
import { IDEMPOTENCY_DESCRIPTION, idempotencyHeaders, idempotent } from '../platform/idempotency'
import { jsonBody } from '../platform/json-body'
import { listOf, meta, one } from '../platform/pagination'
import { unwrap } from '../platform/respond'
import { bearer, commonProblems, jsonContent, mount, problemContent, processorProblems, type App } from '../platform/routes'
import type { Services } from '@tutoring/adapters'
import { paymentNotFoundPage, paymentOutcomePage } from './payments.pages'
import { BookingStateSchema, idParam, listQuery } from '../booking'
import { PaymentStatusEnum } from '../platform/payment-status'
import { CouponSchema, PayBody, PaymentStatusSchema, payFor, presentCoupon, presentPaymentStatus } from './booking-payments.schemas'


const PayAnswer = z.object({ status: PaymentStatusEnum, client_secret: z.string().nullable(), redirectURL: z.string().nullable(), payment_id: z.number().int(), booking_state: BookingStateSchema })

const couponQuery = z.object({
  amount: z.string().regex(/^\d{1,7}(\.\d{1,2})?$/).optional().openapi({ description: 'An amount in pounds ("27.50") to discount.' }),
  hourly_rate: z.string().regex(/^\d{1,5}(\.\d{1,2})?$/).optional().openapi({ description: 'With duration: price a lesson with the coupon.' }),
  duration: z.coerce.number().int().min(30).max(120).optional(),
})
const uidParam = z.object({ uid: z.string().min(1).max(64).openapi({ param: { name: 'uid', in: 'path' } }) })
const toPence = (pounds: string | undefined) => (pounds === undefined ? undefined : Math.round(Number(pounds) * 100))

/** What the processor appends to a return URL (Stripe's redirect): documented and taken, never trusted. */
const processorParameter = z.string().max(255).optional().openapi({ description: "The processor's own; ignored (the outcome is read from the processor)." })
const PROCESSOR_RETURN_PARAMETERS = {
  payment_intent: processorParameter,
  payment_intent_client_secret: processorParameter,
  setup_intent: processorParameter,
  setup_intent_client_secret: processorParameter,
  redirect_status: processorParameter,
  source_redirect_slug: processorParameter,
  source_type: processorParameter,
}

export function paymentRoutes(app: App, services: Services): void {
  const deps = services.bookings

  mount(
    app,
    ['/api/payments/pay'],
    {
      method: 'post',
      tags: ['Payments'],
      summary: 'Pay for a booking',
      description: [
        "The booker (or staff) pays an AWAITING_PAYMENT booking whose hold is still open (else 409 invalid_state_transition; another's booking 403, one the caller cannot see 404). `payment_method` defaults to the caller's default saved card (none: 422). A `coupon` not yet on the booking is applied now (422 coupon_invalid).",
        'A PaymentIntent with manual capture is created through the processor: `requires_capture` moves the booking to REQUIRES_CAPTURE (captured after the lesson by `payments:capture-due`), `succeeded` to PAYED; `requires_action` (3-D Secure) answers `redirectURL` and leaves the booking awaiting until GET /api/payments/{id}/status sees it authorised; a decline is 402 `payment_failed` and the booking stays payable.',
        'Card authorisations last about seven days. For a lesson starting more than 6 days out the card (the one given, else the default saved card) is set up for later through a SetupIntent and a payment row is `scheduled` for start − 6 days: `status: "scheduled"` with the SetupIntent\'s `client_secret`, so the client confirms the card now (3-D Secure included; `redirectURL` when the card wants it); a card the processor refuses is 422 on `payment_method`. The booking is REQUIRES_CAPTURE at once (committed, no longer on hold), and the periodic job authorises it off-session when due. A card whose setup still needs the customer (3-D Secure) answers `requires_action` with the setup\'s `client_secret` and `redirectURL` and commits nothing: the booking stays AWAITING_PAYMENT on its hold (one of the three unpaid, expiring like any hold) until GET /api/payments/return or GET /api/payments/{id}/status sees the setup confirmed. When that authorisation needs the customer (`authentication_required`) the booker is emailed a link to complete it, and a lesson still unauthorised at its start is cancelled; any other decline cancels the lesson at once (nothing was taken) and both parties are emailed.',
        'A weekly series (CONTRACT §16): `booking_series_id` instead of `booking_id` pays every week in one step, each as a lone booking is paid. The first unpaid week is paid as above (its status, `client_secret` and `redirectURL` are the answer); once a week rests on a card set up for later, every later week is scheduled on that saved card (no setup of its own) and authorised and captured by the periodic job at its own time. A week that still needs the customer, or a decline, stops there: the later weeks stay on their hold, and paying the series again goes on from the first unpaid week. A coupon applies to the first week paid; cancelled weeks are passed over. An unpaid series counts as one of the three unpaid bookings.',
        IDEMPOTENCY_DESCRIPTION,
      ].join('\n\n'),
      security: bearer,
      middleware: [authApi, idempotent(services), jsonBody] as const,
      request: { headers: idempotencyHeaders, body: { content: { 'application/json': { schema: PayBody } }, required: true } },
      responses: {
        ...processorProblems,
        200: jsonContent(one(PayAnswer), 'The payment status'),
        402: problemContent('payment_failed'),
        409: problemContent('invalid_state_transition, idempotency_key_in_flight'),
        ...commonProblems,
      },
    },
    async (c) => {
      const body = c.req.valid('json')
      const outcome = await unwrap(payFor(deps, currentUser(c), body))
      const p = outcome.payment
      return c.json(
        {
          data: {
            status: p.status,
            client_secret: p.clientSecret,
            redirectURL: p.status === 'requires_action' || p.status === 'scheduled' ? p.redirectUrl : null,
            payment_id: p.id,
            booking_state: BOOKING_STATES[outcome.booking.booking.state],
          },
        },
        200,
      )
    },
  )

  mount(
    app,
    ['/api/payments/{id}/status'],
    {
      method: 'get',
      tags: ['Payments'],
      summary: "A payment's status",
      description:
        'Public, by payment id. Anonymous callers (and users other than the payer) get the status only; `client_secret`, `redirectURL` and `booking_id` are null for them, since the secret lets its holder complete the payment. The payer (bearer token) or staff get them too. A payment still waiting on the customer (requires_action) is refreshed from the processor, so a finished 3-D Secure step moves the booking to REQUIRES_CAPTURE.',
      security: [{}, ...bearer],
      request: { params: idParam },
      responses: { ...processorProblems, 200: jsonContent(one(PaymentStatusSchema), 'The status'), 404: problemContent('Not found'), 429: commonProblems[429] },
    },
    async (c) => {
      const user = c.get('user')
      const view = await unwrap(getPaymentStatus(deps, user, c.req.valid('param').id))
      return c.json({ data: presentPaymentStatus(view.payment, view.owner) }, 200)
    },
  )

  mount(
    app,
    ['/api/payments/return'],
    {
      method: 'get',
      tags: ['Payments'],
      summary: 'Where the customer returns after a 3-D Secure step (HTML)',
      description: [
        "`redirectURL` from POST /api/payments/pay leads to the processor's (or the bank's) check, which sends the customer's browser back here with `payment_id` (or `booking_id`, after the check of a card set up for a lesson more than 6 days out; and the processor's own parameters, listed here and ignored: the outcome is asked of the processor).",
        'Answers an HTML page with the outcome, refreshed from the processor as GET /api/payments/{id}/status does, so the booking moves on even before the webhook arrives. Public, like that route: it shows the outcome only. An unknown payment is a 404 page.',
      ].join(' '),
      security: [{}],
      request: {
        query: z
          .object({
            payment_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
            booking_id: z.coerce.number().int().positive().max(2_147_483_647).optional().openapi({
              description: "Instead of `payment_id`, after the bank's check of a card set up for a lesson more than 6 days out: that booking's payment",
            }),
            ...PROCESSOR_RETURN_PARAMETERS,
          })
          .refine((q) => q.payment_id !== undefined || q.booking_id !== undefined, { message: 'give payment_id or booking_id', path: ['payment_id'] }),
      },
      responses: {
        200: { content: { 'text/html': { schema: z.string() } }, description: 'The outcome page' },
        404: { content: { 'text/html': { schema: z.string() } }, description: 'No such payment' },
        422: commonProblems[422],
      },
    },
    async (c) => {
      const query = c.req.valid('query')
      const view = query.payment_id !== undefined ? await getPaymentStatus(deps, undefined, query.payment_id) : await getBookingPaymentStatus(deps, query.booking_id!)
      return view.isOk() ? c.html(paymentOutcomePage(view.value.payment.status), 200) : c.html(paymentNotFoundPage(), 404)
    },
  )

  mount(
    app,
    ['/api/coupons'],
    {
      method: 'get',
      tags: ['Coupons'],
      summary: 'Coupons',
      description: 'Any signed-in user: active coupons that have not expired, with their limits and use so far.',
      security: bearer,
      middleware: [authApi] as const,
      request: { query: listQuery },
      responses: { 200: jsonContent(listOf(CouponSchema), 'Coupons'), ...commonProblems },
    },
    async (c) => {
      const { page, per_page } = c.req.valid('query')
      const found = await unwrap(listCoupons(deps, { page, perPage: per_page }))
      return c.json({ data: found.items.map(presentCoupon), meta: meta(found.total, { page, per_page }) }, 200)
    },
  )

  const CouponCheckSchema = z.object({
    coupon: CouponSchema,
    valid: z.boolean(),
    discount_amount: z.string().nullable(),
    lesson_price_breakdown: PriceBreakdownSchema.nullable(),
  })
  mount(
    app,
    ['/api/coupons/{uid}/validate'],
    {
      method: 'get',
      tags: ['Coupons'],
      summary: 'Check a coupon',
      description:
        'Checks expiry, the overall limit and the per-user limit for the caller (422 coupon_invalid with the reason otherwise). With `amount` (pounds) answers the discount on it; with `hourly_rate` and `duration` (default 60) the whole lesson price breakdown with the coupon. Coupons come off the total, service fee included.',
      security: bearer,
      middleware: [authApi] as const,
      request: { params: uidParam, query: couponQuery },
      responses: { 200: jsonContent(one(CouponCheckSchema), 'Valid'), ...commonProblems },
    },
    async (c) => {
      const q = c.req.valid('query')
      const checked = await unwrap(
        checkCoupon(deps, currentUser(c), {
          uid: c.req.valid('param').uid,
          amountPence: toPence(q.amount),
          hourlyRatePence: toPence(q.hourly_rate),
          durationMinutes: q.duration,
        }),
      )
      return c.json(
        {
          data: {
            coupon: presentCoupon(checked.coupon),
            valid: true,
            discount_amount: checked.discountPence === null ? null : formatPence(checked.discountPence),
            lesson_price_breakdown: checked.breakdown ? presentPriceBreakdown(checked.breakdown) : null,
          },
        },
        200,
      )
    },
  )
}
