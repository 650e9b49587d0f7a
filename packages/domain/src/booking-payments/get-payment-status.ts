import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { DAY_MS, isInternal, notFound, type Actor, type NotFound } from '../shared'
import { announceIfPaid, AUTHORIZE_LEAD_DAYS, type BookingPayment } from '../booking'
import { mayCarryBooking, recordAttemptAnswer } from './attempt-answer'
import type { BookingPaymentsDeps } from './ports'

export type PaymentStatusView = { payment: BookingPayment; /** whether the caller may see the client secret and redirect */ owner: boolean }

const UNSETTLED = new Set(['requires_action', 'processing'])

/**
 * `GET /api/payments/{id}/status` (public). Anyone holding the id learns the status only;
 * the payer (or staff, by bearer token) also gets the client secret and the redirect, which
 * let a client finish the payment. A payment still waiting on the customer is refreshed
 * from the processor, so a finished 3-D Secure step moves the booking on, unless the attempt
 * no longer counts (superseded or released meanwhile): then what it holds goes back.
 */
export function getPaymentStatus(
  deps: Pick<BookingPaymentsDeps, 'uow' | 'processor' | 'clock'>,
  actor: Actor | undefined,
  paymentId: number,
): ResultAsync<PaymentStatusView, NotFound> {
  return new ResultAsync(
    (async (): Promise<Result<PaymentStatusView, NotFound>> => {
      const found = await deps.uow.repos.payments.findById(paymentId)
      if (!found) return err(notFound('payment'))
      const owner = actor !== undefined && (actor.id === found.userId || isInternal(actor.roleId))
      if (found.setupIntentId && !found.intentId && found.status === 'requires_action') return ok({ payment: await refreshCardSetup(deps, found, found.setupIntentId), owner })
      if (!found.intentId || !UNSETTLED.has(found.status)) return ok({ payment: found, owner })
      const pi = await deps.processor.retrievePaymentIntent(found.intentId)
      if (pi.status === found.status) return ok({ payment: found, owner })
      return deps.uow.run(async (repos) => {
        const a = await repos.bookings.lockById(found.bookingId)
        const current = await repos.payments.findById(found.id)
        // Another call recorded an answer first, or a card change gave the payment another intent: it stands.
        if (a && current && current.status === found.status && current.intentId === found.intentId) {
          await recordAttemptAnswer(repos, a, found.id, pi, { actorId: null, payable: true, now: deps.clock.now() })
        }
        const updated = await repos.payments.findById(found.id)
        return ok({ payment: updated ?? found, owner })
      })
    })(),
  )
}

/**
 * A far lesson's card setup that waited for the customer: once the processor says it is
 * confirmed, the attempt is scheduled for its authorisation (start − 6 days) and the booking
 * committed, if the attempt may still carry it (not superseded, the hold open); otherwise it
 * is closed (nothing is held by a setup).
 */
async function refreshCardSetup(deps: Pick<BookingPaymentsDeps, 'uow' | 'processor' | 'clock'>, found: BookingPayment, setupIntentId: string): Promise<BookingPayment> {
  const setup = await deps.processor.retrieveSetupIntent(setupIntentId)
  if (setup.status !== 'succeeded') return found
  const done = await deps.uow.run(async (repos) => {
    const now = deps.clock.now()
    const a = await repos.bookings.lockById(found.bookingId)
    const payments = a ? await repos.payments.listByBooking(a.booking.id) : []
    const row = payments.find((p) => p.id === found.id)
    if (!a || !row || row.status !== 'requires_action') return ok(undefined)
    const open = a.booking.holdExpiresAt === null || a.booking.holdExpiresAt.getTime() > now.getTime()
    if (!open || !mayCarryBooking(payments, row, { state: a.booking.state, lessonState: a.lesson.state })) {
      await repos.payments.update(row.id, { status: 'canceled' })
      return ok(undefined)
    }
    const authorizeAt = new Date(a.lesson.start.getTime() - AUTHORIZE_LEAD_DAYS * DAY_MS)
    await repos.payments.update(row.id, { status: 'scheduled', authorizeAt, paymentMethodId: setup.paymentMethodId ?? row.paymentMethodId })
    await repos.bookings.updateBooking(a.booking.id, { state: 'REQUIRES_CAPTURE', holdExpiresAt: null })
    await announceIfPaid(repos, a, 'REQUIRES_CAPTURE', now)
    await repos.bookings.addEvent(a.booking.id, 'payment_scheduled', null, { payment_id: row.id, authorize_at: authorizeAt.toISOString() })
    return ok(undefined)
  })
  done._unsafeUnwrap()
  return (await deps.uow.repos.payments.findById(found.id)) ?? found
}
