import { z } from '@hono/zod-openapi'
import type { BookingPayment, StoredCoupon } from '@tutoring/domain/booking'
import { PAYMENT_EVENT_TYPES, payBooking, payBookingSeries, type PaymentEvent } from '@tutoring/domain/booking-payments'
import type { Services } from '@tutoring/adapters'
import type { Actor } from '@tutoring/domain/shared'
import { formatPence } from '@tutoring/domain/shared'
import { parseEventObject, type ProcessorEvent } from '../payments'
import { PaymentStatusEnum } from '../platform/payment-status'

const INT_MAX = 2_147_483_647
const Money = z.string().openapi({ example: '25.00' })
const iso = (d: Date | null) => (d === null ? null : d.toISOString())

export const PayBody = z
  .strictObject({
    booking_id: z.number().int().positive().max(INT_MAX).optional(),
    booking_series_id: z
      .number()
      .int()
      .positive()
      .max(INT_MAX)
      .optional()
      .openapi({ description: 'Instead of `booking_id`: pay every week of a weekly series in one step (CONTRACT §16).' }),
    payment_method: z.string().max(255).trim().min(3).nullish().openapi({ description: 'A processor payment method id (pm_...); defaults to the caller\'s default saved card.' }),
    coupon: z.string().max(64).trim().min(1).nullish(),
  })
  .refine((body) => (body.booking_id === undefined) !== (body.booking_series_id === undefined), {
    message: 'give booking_id or booking_series_id, not both',
    path: ['booking_id'],
  })
  .openapi('PayRequest')

/** A booking's payment, or a weekly series' (`booking_series_id`): the one use case the body names. */
export const payFor = (deps: Services['bookings'], actor: Actor, body: z.output<typeof PayBody>) => {
  const common = { paymentMethod: body.payment_method ?? null, coupon: body.coupon ?? null }
  // The refinement above lets exactly one of the two ids through.
  return body.booking_series_id !== undefined
    ? payBookingSeries(deps, actor, { seriesId: body.booking_series_id, ...common })
    : payBooking(deps, actor, { bookingId: body.booking_id ?? 0, ...common })
}

export const PaymentStatusSchema = z
  .object({ id: z.number().int(), status: PaymentStatusEnum, client_secret: z.string().nullable(), redirectURL: z.string().nullable(), booking_id: z.number().int().nullable() })
  .openapi('PaymentStatus')

export const presentPaymentStatus = (p: BookingPayment, owner: boolean): z.infer<typeof PaymentStatusSchema> => ({
  id: p.id,
  status: p.status,
  client_secret: owner ? p.clientSecret : null,
  redirectURL: owner && p.status === 'requires_action' ? p.redirectUrl : null,
  booking_id: owner ? p.bookingId : null,
})

export const CouponSchema = z
  .object({
    uid: z.string(),
    discount_type: z.enum(['percentage', 'fixed']),
    percent_off: z.number().nullable(),
    amount_off: Money.nullable(),
    expires_at: z.string().nullable(),
    max_redemptions: z.number().int().nullable(),
    max_redemptions_per_user: z.number().int().nullable(),
    times_redeemed: z.number().int(),
  })
  .openapi('Coupon')

export const presentCoupon = (c: StoredCoupon): z.infer<typeof CouponSchema> => ({
  uid: c.uid,
  discount_type: c.discount.kind,
  percent_off: c.discount.kind === 'percentage' ? c.discount.percentOff : null,
  amount_off: c.discount.kind === 'fixed' ? formatPence(c.discount.amountOffPence) : null,
  expires_at: iso(c.expiresAt),
  max_redemptions: c.maxRedemptions,
  max_redemptions_per_user: c.maxRedemptionsPerUser,
  times_redeemed: c.timesRedeemed,
})

const IntentObject = z.object({
  id: z.string().min(1),
  status: z.enum(['requires_payment_method', 'requires_confirmation', 'requires_action', 'processing', 'requires_capture', 'succeeded', 'canceled']),
  amount: z.number().int().min(0).nullish(),
  amount_received: z.number().int().min(0).default(0),
  customer: z.string().nullish(),
  payment_method: z.string().nullish(),
  last_payment_error: z.object({ message: z.string().optional() }).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
})
const Metadata = z.record(z.string(), z.unknown()).nullish()
const RefundedChargeObject = z.object({ payment_intent: z.string().min(1), amount_refunded: z.number().int().min(0), amount_captured: z.number().int().min(0).nullish(), metadata: Metadata })
const ChargeObject = z.object({
  id: z.string().min(1),
  payment_intent: z.string().min(1),
  captured: z.boolean().default(false),
  amount_captured: z.number().int().min(0).default(0),
  failure_message: z.string().nullish(),
  metadata: Metadata,
})
const DisputeObject = z.object({
  id: z.string().min(1),
  payment_intent: z.string().min(1).nullish(),
  status: z.string().min(1).max(64),
  reason: z.string().max(255).nullish(),
  amount: z.number().int().min(0),
})
const AccountObject = z.object({ id: z.string().min(1), payouts_enabled: z.boolean().nullish() })
const SetupObject = z.object({ id: z.string().min(1), status: z.string().min(1).max(64), payment_method: z.string().nullish() })
const PayoutObject = z.object({ id: z.string().min(1), amount: z.number().int().min(0), failure_message: z.string().nullish() })

/** The payment row an intent was made for, from the `payment_id` this service puts in its metadata. */
const paymentIdOf = (metadata: Record<string, unknown> | null | undefined): number | null => {
  const value = metadata?.payment_id
  const id = typeof value === 'string' && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : null
  return id !== null && Number.isSafeInteger(id) ? id : null
}

/** The payments flow's view of an event; types it does not handle carry nothing more. */
export function toPaymentEvent(event: ProcessorEvent): PaymentEvent {
  const base = {
    id: event.id,
    type: event.type,
    ...(event.created === undefined ? {} : { createdAt: new Date(event.created * 1000) }),
    ...(event.account ? { connectedAccount: event.account } : {}),
  }
  if (!PAYMENT_EVENT_TYPES.some((t) => t === event.type)) return base
  const object = event.data.object
  switch (event.type) {
    case 'charge.refunded': {
      const charge = parseEventObject(RefundedChargeObject, object)
      return {
        ...base,
        refund: { paymentIntentId: charge.payment_intent, amountRefundedPence: charge.amount_refunded, amountCapturedPence: charge.amount_captured ?? null },
        paymentId: paymentIdOf(charge.metadata),
      }
    }
    case 'charge.succeeded':
    case 'charge.failed': {
      const charge = parseEventObject(ChargeObject, object)
      return {
        ...base,
        charge: { id: charge.id, paymentIntentId: charge.payment_intent, capturedPence: charge.captured ? charge.amount_captured : 0, failureMessage: charge.failure_message ?? null },
        paymentId: paymentIdOf(charge.metadata),
      }
    }
    case 'charge.dispute.created':
    case 'charge.dispute.closed': {
      const dispute = parseEventObject(DisputeObject, object)
      // A dispute of a charge made without a payment intent is no booking's.
      if (!dispute.payment_intent) return base
      return { ...base, dispute: { id: dispute.id, paymentIntentId: dispute.payment_intent, status: dispute.status, reason: dispute.reason ?? null, amountPence: dispute.amount } }
    }
    case 'setup_intent.succeeded': {
      const setup = parseEventObject(SetupObject, object)
      return { ...base, setupIntent: { id: setup.id, status: setup.status, paymentMethodId: setup.payment_method ?? null } }
    }
    case 'account.updated': {
      const account = parseEventObject(AccountObject, object)
      return { ...base, account: { id: account.id, payoutsEnabled: account.payouts_enabled ?? false } }
    }
    case 'payout.paid':
    case 'payout.failed': {
      const payout = parseEventObject(PayoutObject, object)
      if (!event.account) return base
      return { ...base, payout: { id: payout.id, accountId: event.account, amountPence: payout.amount, failureMessage: payout.failure_message ?? null } }
    }
    default: {
      const intent = parseEventObject(IntentObject, object)
      return {
        ...base,
        intent: {
          id: intent.id,
          status: intent.status,
          amountPence: intent.amount ?? null,
          customerId: intent.customer ?? null,
          paymentMethodId: intent.payment_method ?? null,
          amountReceivedPence: intent.amount_received,
          lastError: intent.last_payment_error?.message ?? null,
        },
        paymentId: paymentIdOf(intent.metadata),
      }
    }
  }
}
