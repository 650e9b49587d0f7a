import { ok } from 'neverthrow'
import { HOUR_MS, MINUTE_MS } from '../shared'
import { cancelUntakenLesson, transitionBooking, type BookingPayment, type PaymentRouting } from '../booking'
import { bookingPaymentIntent, fixRouting } from './booking-payment-intent'
import { awaitCustomerAuthentication } from './payment-authentication'
import { voidGivenUpIntent } from './attempt-answer'
import type { BookingPaymentsDeps, BookingPaymentsRepos } from './ports'

export type DuePaymentsReport = { authorized: number; failed: number; captured: number; skipped: number; retrying: number }

type Deps = Pick<BookingPaymentsDeps, 'uow' | 'clock' | 'processor' | 'config'>
type Due = 'authorize' | 'capture'

/** After this many failures of one payment in a row, staff are emailed about it, once. */
export const PAYMENT_FAILURES_BEFORE_STAFF_ALERT = 3

/** 1, 2, 4 … minutes, at most 6 hours: a refusal is retried for as long as it takes, never dropped. */
export const paymentRetryDelayMs = (failures: number): number => Math.min(MINUTE_MS * 2 ** Math.min(failures - 1, 30), 6 * HOUR_MS)

/**
 * `pnpm cli payments:capture-due` and its periodic job. Each row is claimed with FOR UPDATE
 * SKIP LOCKED inside its own transaction and the processor is called while the claim is
 * held, with the row's idempotency key: several instances may run this at once, and each
 * payment is authorised and captured once.
 *
 * 1. Scheduled payments whose `authorize_at` came: a manual-capture intent off-session. A
 *    decline cancels the lesson (nothing was taken) and tells both parties; a bank that wants
 *    the customer (`authentication_required`) gets them asked by email, until the start.
 * 2. Authorised payments whose lesson finished (`capture_at`): captured in full; the booking
 *    becomes PAYED.
 *
 * A row whose work throws (the processor refused the capture, or did not answer) is recorded
 * as failed on the row, with its next try backed off, and the run moves on to the other due
 * rows: one stuck payment never delays another's capture (CONTRACT §14).
 */
export async function runDuePayments(deps: Deps, limit = 100): Promise<DuePaymentsReport> {
  const report: DuePaymentsReport = { authorized: 0, failed: 0, captured: 0, skipped: 0, retrying: 0 }
  for (const due of ['authorize', 'capture'] as const) {
    for (let i = 0; i < limit; i++) {
      const claimed: Claimed = { payment: null, asked: null, lost: null }
      try {
        const done = await deps.uow.run(async (repos) => {
          const now = deps.clock.now()
          const p = await repos.payments.claimDue(due, now)
          if (!p) return ok(false)
          claimed.payment = p
          await (due === 'authorize' ? authorizeDue(deps, repos, p, now, report, claimed) : captureDue(deps, repos, p, report))
          return ok(true)
        })
        if (!done._unsafeUnwrap()) break
      } catch (error) {
        // Nothing claimed means the database itself failed: no other row would fare better.
        if (!claimed.payment) throw error
        await recordFailure(deps, claimed.payment, claimed.asked, due, error, claimed.lost)
        report.retrying++
      }
    }
  }
  return report
}

/**
 * The row a run claimed, where its money was asked to go, and the intent an earlier unanswered
 * call made for it, should the processor call throw.
 */
type Claimed = { payment: BookingPayment | null; asked: PaymentRouting | null; lost: string | null }

async function authorizeDue(deps: Deps, repos: BookingPaymentsRepos, p: BookingPayment, now: Date, report: DuePaymentsReport, claimed: Claimed): Promise<void> {
  const a = await repos.bookings.lockById(p.bookingId)
  if (!a || a.lesson.state === 'CANCELLED' || a.booking.state !== 'REQUIRES_CAPTURE') {
    await repos.payments.update(p.id, { status: 'canceled', authorizeAt: null, retryAt: null })
    report.skipped++
    return
  }
  const input = await bookingPaymentIntent(deps, repos, a, p, true)
  claimed.asked = (await repos.payments.findById(p.id))?.routing ?? null
  // An earlier call that went unanswered may have authorised all the same; its key names its
  // card, so after a card change this call makes another intent and the first is voided below.
  const found = p.failedAttempts > 0 && p.intentId === null ? await deps.processor.findPaymentIntentByPaymentId(p.id) : null
  claimed.lost = found && found.status !== 'canceled' && found.id !== p.voidedIntentId ? found.id : null
  const intent = await deps.processor.createPaymentIntent(input)
  const made = intent.isOk() ? intent.value.id : intent.error.paymentIntentId
  if (claimed.lost && claimed.lost !== made) await voidGivenUpIntent(repos, p.id, claimed.lost)
  if (intent.isOk() && intent.value.status === 'requires_capture') {
    await repos.payments.update(p.id, {
      intentId: intent.value.id,
      status: 'requires_capture',
      clientSecret: intent.value.clientSecret,
      captureAt: a.lesson.finish,
      ...recovered,
    })
    await repos.bookings.addEvent(a.booking.id, 'authorized', null, { payment_id: p.id })
    report.authorized++
    return
  }
  if (intent.isErr() && intent.error.code === 'authentication_required' && intent.error.paymentIntentId) {
    // The bank wants the customer: they are asked to confirm it before the lesson starts.
    await awaitCustomerAuthentication(deps, repos, a, p, { paymentIntentId: intent.error.paymentIntentId, reason: intent.error.reason })
    await repos.payments.update(p.id, { failedAttempts: 0, retryAt: null })
    report.failed++
    return
  }
  const reason = intent.isErr() ? intent.error.reason : `the processor answered ${intent.value.status}`
  await repos.payments.update(p.id, {
    status: 'requires_payment_method',
    lastError: reason,
    authorizeAt: null,
    retryAt: null,
    intentId: intent.isOk() ? intent.value.id : null,
  })
  await cancelUntakenLesson(repos, a, now, 'payment_authorization_failed')
  report.failed++
}

async function captureDue(deps: Deps, repos: BookingPaymentsRepos, p: BookingPayment, report: DuePaymentsReport): Promise<void> {
  const a = await repos.bookings.lockById(p.bookingId)
  if (!a || !p.intentId || a.lesson.state === 'CANCELLED' || a.booking.state !== 'REQUIRES_CAPTURE') {
    // Cancelled meanwhile: the cancellation's own processor call settles the money.
    await repos.payments.update(p.id, { captureAt: null, retryAt: null })
    report.skipped++
    return
  }
  const pi = await deps.processor.capturePaymentIntent(p.intentId, { idempotencyKey: `capture-${p.id}` })
  await repos.payments.update(p.id, { status: pi.status, capturedPence: pi.amountReceivedPence, captureAt: null, ...recovered })
  const moved = transitionBooking(a.booking.state, 'capture', {})
  if (moved.isErr()) throw new Error('REQUIRES_CAPTURE refused capture')
  await repos.bookings.updateBooking(a.booking.id, { state: moved.value.to })
  await repos.bookings.addEvent(a.booking.id, 'captured', null, { payment_id: p.id })
  report.captured++
}

/** What a payment that went through after failures forgets. */
const recovered = { failedAttempts: 0, retryAt: null, lastError: null } as const

/**
 * In a transaction of its own (the failed one rolled back): the failure on the row, its next
 * try, the booking's timeline, and staff told once the row has failed often enough to need a person.
 */
async function recordFailure(deps: Deps, p: BookingPayment, asked: PaymentRouting | null, due: Due, error: unknown, lost: string | null): Promise<void> {
  const reason = (error instanceof Error ? error.message : String(error)).slice(0, 1000)
  // The thrown call made an intent other than the earlier unanswered one (its key names another
  // card): the next lookup finds only the newer, so the earlier one is voided now.
  // A lookup that fails too leaves the earlier intent to the next run, which looks again.
  const latest = lost ? await deps.processor.findPaymentIntentByPaymentId(p.id).catch(() => null) : null
  await deps.uow.run(async (repos) => {
    const now = deps.clock.now()
    // A call that threw may have authorised all the same (its answer lost; the webhook tells):
    // where it asked the money to go stays on the row, so the tutor's share is paid once captured.
    const a = asked && !(await repos.payments.findById(p.id))?.routing ? await repos.bookings.findById(p.bookingId) : undefined
    if (a && asked) await fixRouting(repos, a, p, asked)
    const failures = p.failedAttempts + 1
    const retryAt = new Date(now.getTime() + paymentRetryDelayMs(failures))
    await repos.payments.update(p.id, { failedAttempts: failures, lastError: reason, retryAt })
    if (lost && latest && latest.id !== lost) await voidGivenUpIntent(repos, p.id, lost)
    await repos.bookings.addEvent(p.bookingId, `${due}_retry_scheduled`, null, { payment_id: p.id, attempts: failures, retry_at: retryAt.toISOString() })
    if (failures === PAYMENT_FAILURES_BEFORE_STAFF_ALERT) {
      await repos.outbox.enqueue({
        kind: 'email',
        template: 'payment_stuck',
        to: deps.config.internalMailbox,
        data: { paymentId: p.id, bookingId: p.bookingId, work: due, attempts: failures, lastError: reason, retryAt: retryAt.toISOString() },
        dedupeKey: `payment_stuck:${due}:${p.id}`,
      })
    }
    return ok(undefined)
  })
}
