import { err, ok, ResultAsync, type Result } from 'neverthrow'
import type { PaymentFailed } from '../payments'
import { couponInvalid, discountOn, validateCoupon, type CouponInvalid } from '../pricing'
import {
  DAY_MS,
  fieldError,
  forbidden,
  invalidStateTransition,
  isInternal,
  notFound,
  type Actor,
  type Forbidden,
  type InvalidStateTransition,
  type NotFound,
  type ValidationFailed,
} from '../shared'
import { announceIfPaid, AUTHORIZE_LEAD_DAYS, maySeeBooking, releaseAttempt, transitionBooking, type BookingAggregate, type BookingPayment } from '../booking'
import type { BookingPaymentsDeps, BookingPaymentsRepos } from './ports'
import { recordAttemptAnswer, voidGivenUpIntent } from './attempt-answer'
import { bookerCustomer, bookingPaymentIntent, fixRouting } from './booking-payment-intent'

export type PayBookingInput = { bookingId: number; paymentMethod: string | null; coupon: string | null }
export type PayOutcome = { payment: BookingPayment; booking: BookingAggregate }
export type PayBookingError = NotFound | Forbidden | InvalidStateTransition | ValidationFailed | CouponInvalid | PaymentFailed

type Prepared = { kind: 'done'; outcome: PayOutcome } | { kind: 'charge'; payment: BookingPayment; aggregate: BookingAggregate }

const stillPayable = (a: BookingAggregate, now: Date): Result<void, InvalidStateTransition> => {
  if (a.lesson.state === 'CANCELLED' || (a.booking.holdExpiresAt !== null && a.booking.holdExpiresAt.getTime() <= now.getTime())) {
    return err(invalidStateTransition('booking', a.lesson.state === 'CANCELLED' ? 'cancelled' : 'hold_expired', 'pay'))
  }
  return transitionBooking(a.booking.state, 'pay', { capture: 'manual', lessonState: a.lesson.state }).map(() => undefined).mapErr(
    (e) => (e.type === 'InvalidStateTransition' ? e : invalidStateTransition('booking', a.booking.state, 'pay')),
  )
}

/**
 * Who pays (the booker, or staff) and whether the booking may be paid now: checked before any
 * call to the processor, so nobody else's card or customer is touched (CONTRACT §15).
 */
const mayPay = (actor: Actor, a: BookingAggregate | undefined, now: Date): Result<BookingAggregate, NotFound | Forbidden | InvalidStateTransition> => {
  if (!a || !maySeeBooking(actor, a)) return err(notFound('booking'))
  if (a.booking.userId !== actor.id && !isInternal(actor.roleId)) return err(forbidden('Only the booker pays for a booking.'))
  return stillPayable(a, now).map(() => a)
}

async function reload(repos: BookingPaymentsRepos, id: number): Promise<BookingAggregate> {
  const a = await repos.bookings.findById(id)
  if (!a) throw new Error('a locked booking vanished')
  return a
}

/**
 * First transaction: who, which state, the coupon, and the payment row. A lesson more than
 * six days out is settled here: the card set up (its client secret kept) and the row `scheduled`
 * for an off-session authorisation at start − 6 days; the booking counts as committed
 * (REQUIRES_CAPTURE) and stops expiring. A row left `requires_confirmation` by a call that
 * never answered is reused, so its processor idempotency key makes the retry safe.
 */
async function prepare(
  deps: Pick<BookingPaymentsDeps, 'uow' | 'clock'>,
  actor: Actor,
  input: PayBookingInput,
  setup: Omit<CardSetup, 'paymentMethod'>,
): Promise<Result<Prepared, PayBookingError>> {
  return deps.uow.run(async (repos): Promise<Result<Prepared, PayBookingError>> => {
    const now = deps.clock.now()
    const payable = mayPay(actor, await repos.bookings.lockById(input.bookingId), now)
    if (payable.isErr()) return err(payable.error)
    const a = payable.value
    const paymentMethod = input.paymentMethod ?? (await repos.payments.defaultPaymentMethodOf(a.booking.userId))
    if (!paymentMethod) return err(fieldError('payment_method', 'is required: you have no saved card'))

    if (input.coupon !== null && input.coupon !== a.booking.couponUid) {
      if (a.booking.couponUid !== null) return err(fieldError('coupon', 'this booking already has a coupon'))
      const found = await repos.coupons.findByUid(input.coupon)
      const used = found ? await repos.coupons.redeemedBy(found.id, a.booking.userId) : 0
      const valid = validateCoupon(input.coupon, found, { now, redeemedByUser: used })
      if (valid.isErr() || !found) return err(valid.isErr() ? valid.error : fieldError('coupon', 'unknown'))
      const initial = a.booking.lessonPricePence + a.booking.serviceFeePence
      const discount = discountOn(initial, found.discount)
      await repos.bookings.updateBooking(a.booking.id, { couponUid: found.uid, discountPence: discount, totalPence: initial - discount })
      if (!(await repos.coupons.redeem({ couponId: found.id, userId: a.booking.userId, bookingId: a.booking.id, discountPence: discount, useNumber: used + 1 }))) {
        return err(couponInvalid(found.uid, 'user_usage_limit_reached'))
      }
    }
    const fresh = await reload(repos, a.booking.id)
    const total = fresh.booking.totalPence
    const authorizeAt = new Date(fresh.lesson.start.getTime() - AUTHORIZE_LEAD_DAYS * DAY_MS)

    if (total > 0 && authorizeAt.getTime() > now.getTime() && setup.needsCustomer) return ok({ kind: 'done', outcome: await awaitCardSetup(repos, actor, fresh, paymentMethod, setup) })
    if (total === 0 || authorizeAt.getTime() > now.getTime()) {
      const scheduled = total > 0
      const payment = await repos.payments.insert({
        bookingId: fresh.booking.id,
        userId: fresh.booking.userId,
        status: scheduled ? 'scheduled' : 'succeeded',
        amountPence: total,
        paymentMethodId: paymentMethod,
        authorizeAt: scheduled ? authorizeAt : null,
        captureAt: null,
      })
      // Nothing charged (a 100 % coupon): the tutor is still owed the price, which the platform pays.
      if (!scheduled && fresh.booking.lessonPricePence > 0) await fixRouting(repos, fresh, payment)
      if (scheduled && setup.clientSecret) {
        await repos.payments.update(payment.id, { clientSecret: setup.clientSecret, redirectUrl: setup.redirectUrl })
        Object.assign(payment, { clientSecret: setup.clientSecret, redirectUrl: setup.redirectUrl })
      }
      await repos.bookings.updateBooking(fresh.booking.id, { state: scheduled ? 'REQUIRES_CAPTURE' : 'PAYED', holdExpiresAt: null })
      await announceIfPaid(repos, fresh, scheduled ? 'REQUIRES_CAPTURE' : 'PAYED', now)
      await supersede(repos, payment)
      await repos.bookings.addEvent(fresh.booking.id, scheduled ? 'payment_scheduled' : 'paid', actor.id, {
        payment_id: payment.id,
        ...(scheduled ? { authorize_at: authorizeAt.toISOString() } : {}),
      })
      return ok({ kind: 'done', outcome: { payment, booking: await reload(repos, fresh.booking.id) } })
    }
    const pending = fresh.payment
    // Not once a retry gave up its first call's intent: that key would only replay the voided intent.
    const reusable =
      pending && pending.status === 'requires_confirmation' && pending.voidedIntentId === null && pending.amountPence === total && pending.paymentMethodId === paymentMethod
    const payment = reusable
      ? pending
      : await repos.payments.insert({
          bookingId: fresh.booking.id,
          userId: fresh.booking.userId,
          status: 'requires_confirmation',
          amountPence: total,
          paymentMethodId: paymentMethod,
          authorizeAt: null,
          captureAt: fresh.lesson.finish,
        })
    await supersede(repos, payment)
    return ok({ kind: 'charge', payment, aggregate: fresh })
  })
}

/**
 * A far lesson's card setup that still needs the customer (3-D Secure) commits nothing: the
 * attempt waits with the setup's secret and redirect, the booking stays AWAITING_PAYMENT on
 * its hold (counted among the three unpaid, expiring like any hold) until the bank's check
 * passes (getPaymentStatus then schedules the authorisation), CONTRACT §15.
 */
async function awaitCardSetup(repos: BookingPaymentsRepos, actor: Actor, a: BookingAggregate, paymentMethod: string, setup: Omit<CardSetup, 'paymentMethod'>): Promise<PayOutcome> {
  const inserted = await repos.payments.insert({
    bookingId: a.booking.id,
    userId: a.booking.userId,
    status: 'requires_action',
    amountPence: a.booking.totalPence,
    paymentMethodId: paymentMethod,
    authorizeAt: null,
    captureAt: null,
  })
  const waiting = { setupIntentId: setup.setupIntentId, clientSecret: setup.clientSecret, redirectUrl: setup.redirectUrl }
  await repos.payments.update(inserted.id, waiting)
  await supersede(repos, inserted)
  await repos.bookings.addEvent(a.booking.id, 'payment_requires_action', actor.id, { payment_id: inserted.id })
  return { payment: { ...inserted, ...waiting }, booking: await reload(repos, a.booking.id) }
}

/**
 * A new attempt replaces the booking's earlier ones: any of them still open at the processor
 * (a 3-D Secure step never finished, a decline) is cancelled there, so it can never be
 * authorised later beside this one.
 */
async function supersede(repos: BookingPaymentsRepos, current: BookingPayment): Promise<void> {
  for (const p of await repos.payments.listByBooking(current.bookingId)) {
    if (p.id !== current.id && p.status !== 'succeeded') await releaseAttempt(repos, p)
  }
}

/**
 * `POST /api/payments/pay`: a manual-capture PaymentIntent through the processor port,
 * outside any transaction; then the answer is recorded. requires_capture moves the booking
 * to REQUIRES_CAPTURE (succeeded: PAYED); requires_action leaves it awaiting with the
 * redirect; a decline is PaymentFailed (402) and leaves the booking payable again.
 */
export function payBooking(
  deps: Pick<BookingPaymentsDeps, 'uow' | 'clock' | 'processor' | 'config'>,
  actor: Actor,
  input: PayBookingInput,
): ResultAsync<PayOutcome, PayBookingError> {
  return new ResultAsync(
    (async (): Promise<Result<PayOutcome, PayBookingError>> => {
      const saved = await setUpForLater(deps, actor, input)
      if (saved.isErr()) return err(saved.error)
      return payOnCard(deps, actor, { ...input, paymentMethod: saved.value.paymentMethod }, saved.value)
    })(),
  )
}

/**
 * Pays a booking on a card already set up for later use, as a later week of a series is
 * (CONTRACT §16: the card is saved once): a lesson more than six days out is scheduled for
 * its off-session authorisation at once, with no setup of its own.
 */
export function payWithSavedCard(
  deps: Pick<BookingPaymentsDeps, 'uow' | 'clock' | 'processor' | 'config'>,
  actor: Actor,
  input: PayBookingInput & { paymentMethod: string },
): ResultAsync<PayOutcome, PayBookingError> {
  return new ResultAsync(payOnCard(deps, actor, input, { setupIntentId: null, needsCustomer: false, clientSecret: null, redirectUrl: null }))
}

/** A new attempt's row (or, for a lesson set up for later, the whole step), then its card hold if one is due now. */
async function payOnCard(
  deps: Pick<BookingPaymentsDeps, 'uow' | 'clock' | 'processor' | 'config'>,
  actor: Actor,
  input: PayBookingInput,
  setup: Omit<CardSetup, 'paymentMethod'>,
): Promise<Result<PayOutcome, PayBookingError>> {
  const prepared = await prepare(deps, actor, input, setup)
  if (prepared.isErr()) return err(prepared.error)
  if (prepared.value.kind === 'done') return ok(prepared.value.outcome)
  const { payment, aggregate } = prepared.value
  return charge(deps, actor, aggregate, payment, `payment-${payment.id}`)
}

/**
 * One attempt's manual-capture PaymentIntent, outside any transaction, then its answer
 * recorded under the booking's lock (recordAttemptAnswer): a decline is PaymentFailed and
 * leaves the booking payable.
 */
async function charge(
  deps: Pick<BookingPaymentsDeps, 'uow' | 'clock' | 'processor' | 'config'>,
  actor: Actor,
  aggregate: BookingAggregate,
  payment: BookingPayment,
  idempotencyKey: string,
): Promise<Result<PayOutcome, PayBookingError>> {
  const intent = await deps.processor.createPaymentIntent({ ...(await bookingPaymentIntent(deps, deps.uow.repos, aggregate, payment, false)), idempotencyKey })
  const recorded = await deps.uow.run(async (repos): Promise<Result<PayOutcome, PayBookingError>> => {
    const a = await repos.bookings.lockById(aggregate.booking.id)
    if (!a) return err(notFound('booking'))
    if (intent.isErr()) {
      const row = await repos.payments.findById(payment.id)
      // Released meanwhile, or holding through another call's intent (a second change of its card): the row stays as it is.
      const settled = row?.status === 'canceled' || row?.status === 'requires_capture' || row?.status === 'succeeded'
      if (!settled) await repos.payments.update(payment.id, { status: 'requires_payment_method', lastError: intent.error.reason })
      await repos.bookings.addEvent(a.booking.id, 'payment_failed', actor.id, { payment_id: payment.id, reason: intent.error.reason })
      // Committed as Ok (an Err rolls the unit of work back), answered as the decline below.
      return ok({ payment, booking: a })
    }
    // Released meanwhile (a DELETE, a lapse, a cancellation, a newer attempt): the money goes back.
    const verdict = await recordAttemptAnswer(repos, a, payment.id, intent.value, { actorId: actor.id, payable: stillPayable(a, deps.clock.now()).isOk(), now: deps.clock.now() })
    if (intent.value.status === 'requires_action') await repos.bookings.addEvent(a.booking.id, 'payment_requires_action', actor.id, { payment_id: payment.id })
    const updated = (await repos.payments.findById(payment.id)) ?? payment
    return ok({ payment: verdict === 'released' ? { ...updated, status: 'canceled' } : updated, booking: await reload(repos, a.booking.id) })
  })
  return recorded.andThen((outcome) => (intent.isErr() ? err<PayOutcome, PayBookingError>(intent.error) : ok<PayOutcome, PayBookingError>(outcome)))
}

/** Attempts that hold no money: their method may be replaced and the payment tried again. */
export const RETRYABLE: ReadonlySet<BookingPayment['status']> = new Set(['requires_payment_method', 'requires_confirmation', 'requires_action'])

/**
 * `PUT /api/v1/payments/{id}` on an attempt not yet authorised, or whose authorisation
 * failed: THAT payment is tried again with the new method (CONTRACT §17: the answer has its
 * id), under the same checks as a pay (who pays, the booking's state, before any processor
 * call). Its processor idempotency key names the method, since the failed call's key would
 * only replay its failure. A lesson more than 6 days out gets the new card set up and the row
 * scheduled (or waiting for the customer's 3-D Secure step). Only the booking's latest
 * attempt is retried: an older one was superseded (409).
 */
export function retryBookingPayment(
  deps: Pick<BookingPaymentsDeps, 'uow' | 'clock' | 'processor' | 'config'>,
  actor: Actor,
  input: { payment: BookingPayment; paymentMethod: string },
): ResultAsync<PayOutcome, PayBookingError> {
  return new ResultAsync(
    (async (): Promise<Result<PayOutcome, PayBookingError>> => {
      const saved = await setUpForLater(deps, actor, { bookingId: input.payment.bookingId, paymentMethod: input.paymentMethod, coupon: null })
      if (saved.isErr()) return err(saved.error)
      const method = saved.value.paymentMethod ?? input.paymentMethod
      // The attempt's first call went unanswered: the intent it may have made is looked up now,
      // outside any transaction, and given up under the booking's lock below.
      const unanswered = input.payment.status === 'requires_confirmation' && input.payment.intentId === null
      const lost = unanswered ? await deps.processor.findPaymentIntentByPaymentId(input.payment.id) : null
      let replaced: string | null = null
      const prepared = await deps.uow.run(async (repos): Promise<Result<Prepared, PayBookingError>> => {
        const now = deps.clock.now()
        const payable = mayPay(actor, await repos.bookings.lockById(input.payment.bookingId), now)
        if (payable.isErr()) return err(payable.error)
        const a = payable.value
        const payments = await repos.payments.listByBooking(a.booking.id)
        const row = payments.find((p) => p.id === input.payment.id)
        if (!row || !RETRYABLE.has(row.status) || payments.some((p) => p.id > row.id)) {
          return err(invalidStateTransition('payment', row?.status ?? 'canceled', 'change_payment_method'))
        }
        if (row.intentId !== null) {
          // The row's earlier intent (a 3-D Secure step the customer may still finish) is released
          // and forgotten: the retry makes its own, and the earlier one's events no longer find the row.
          await releaseAttempt(repos, row, 'retried')
          await repos.payments.update(row.id, { intentId: null, voidedIntentId: row.intentId })
          replaced = row.intentId
        } else if (lost && row.status === 'requires_confirmation') {
          // Still unanswered under the lock (no answer of it recorded meanwhile): a pay's replay of
          // the first call, or its event, answering late never makes the booking rest on it.
          await voidGivenUpIntent(repos, row.id, lost.id)
        }
        const authorizeAt = new Date(a.lesson.start.getTime() - AUTHORIZE_LEAD_DAYS * DAY_MS)
        if (authorizeAt.getTime() <= now.getTime()) {
          await repos.payments.update(row.id, { paymentMethodId: method, status: 'requires_confirmation', lastError: null, captureAt: a.lesson.finish })
          return ok({ kind: 'charge', payment: { ...row, paymentMethodId: method, status: 'requires_confirmation' }, aggregate: a })
        }
        const setup = { setupIntentId: saved.value.setupIntentId, clientSecret: saved.value.clientSecret, redirectUrl: saved.value.redirectUrl }
        if (saved.value.needsCustomer) {
          await repos.payments.update(row.id, { ...setup, paymentMethodId: method, status: 'requires_action', lastError: null })
        } else {
          await repos.payments.update(row.id, { ...setup, paymentMethodId: method, status: 'scheduled', authorizeAt, lastError: null })
          await repos.bookings.updateBooking(a.booking.id, { state: 'REQUIRES_CAPTURE', holdExpiresAt: null })
          await announceIfPaid(repos, a, 'REQUIRES_CAPTURE', now)
          await repos.bookings.addEvent(a.booking.id, 'payment_scheduled', actor.id, { payment_id: row.id, authorize_at: authorizeAt.toISOString() })
        }
        const after = (await repos.payments.findById(row.id)) ?? row
        return ok({ kind: 'done', outcome: { payment: after, booking: await reload(repos, a.booking.id) } })
      })
      if (prepared.isErr()) return err(prepared.error)
      if (prepared.value.kind === 'done') return ok(prepared.value.outcome)
      // After a released intent the key names it: a retry with a card tried before must make a new intent, not replay the released one.
      return charge(deps, actor, prepared.value.aggregate, prepared.value.payment, `payment-${input.payment.id}:${method}${replaced ? `:after-${replaced}` : ''}`)
    })(),
  )
}

/** The processor's setup of the card of a lesson too far out to authorise now, for the client to confirm. */
type CardSetup = { paymentMethod: string | null; setupIntentId: string | null; needsCustomer: boolean; clientSecret: string | null; redirectUrl: string | null }

/**
 * A lesson too far out for a card hold is authorised later, off-session: the card (the one
 * given, else the default saved card) is set up for that now through a SetupIntent, which
 * attaches it to the booker's processor customer (a refused card is a 422 on
 * payment_method) and whose client secret the answer carries, so the client confirms the
 * card now, 3-D Secure included. The attached method's id is the one saved. Nearer lessons
 * go through unchanged.
 */
async function setUpForLater(
  deps: Pick<BookingPaymentsDeps, 'uow' | 'clock' | 'processor' | 'config'>,
  actor: Actor,
  input: PayBookingInput,
): Promise<Result<CardSetup, PayBookingError>> {
  const unchanged: CardSetup = { paymentMethod: input.paymentMethod, setupIntentId: null, needsCustomer: false, clientSecret: null, redirectUrl: null }
  const now = deps.clock.now()
  const payable = mayPay(actor, await deps.uow.repos.bookings.findById(input.bookingId), now)
  if (payable.isErr()) return err(payable.error)
  const a = payable.value
  if (a.lesson.start.getTime() - AUTHORIZE_LEAD_DAYS * DAY_MS <= now.getTime()) return ok(unchanged)
  const method = input.paymentMethod ?? (await deps.uow.repos.payments.defaultPaymentMethodOf(a.booking.userId))
  if (method === null) return ok(unchanged)
  const setup = await deps.processor.createSetupIntent({
    customerId: await bookerCustomer(deps, deps.uow.repos, a),
    paymentMethodId: method,
    returnUrl: `${deps.config.paymentReturnUrl}${deps.config.paymentReturnUrl.includes('?') ? '&' : '?'}booking_id=${a.booking.id}`,
    metadata: { booking_id: String(a.booking.id) },
    idempotencyKey: `setup-booking-${a.booking.id}:${method}`,
  })
  if (setup.isErr()) return err(fieldError('payment_method', setup.error.reason))
  return ok({
    paymentMethod: setup.value.paymentMethodId ?? method,
    setupIntentId: setup.value.id,
    needsCustomer: setup.value.status !== 'succeeded',
    clientSecret: setup.value.clientSecret,
    redirectUrl: setup.value.redirectUrl,
  })
}
