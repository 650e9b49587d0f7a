import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { isInternal, notFound, type Actor, type NotFound } from '../shared'
import type { BookingPayment } from '../booking'
import { recordAttemptAnswer } from './attempt-answer'
import { commitConfirmedSetup } from './card-setup'
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

/** A far lesson's card setup that waited for the customer: once the processor says it is confirmed, committed (commitConfirmedSetup). */
async function refreshCardSetup(deps: Pick<BookingPaymentsDeps, 'uow' | 'processor' | 'clock'>, found: BookingPayment, setupIntentId: string): Promise<BookingPayment> {
  const setup = await deps.processor.retrieveSetupIntent(setupIntentId)
  if (setup.status !== 'succeeded') return found
  const done = await deps.uow.run(async (repos) => ok(await commitConfirmedSetup(repos, found.bookingId, found.id, setup.paymentMethodId, deps.clock.now())))
  done._unsafeUnwrap()
  return (await deps.uow.repos.payments.findById(found.id)) ?? found
}
