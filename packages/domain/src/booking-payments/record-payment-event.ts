import { ok, ResultAsync } from 'neverthrow'
import type { PaymentIntentStatus } from '../payments'
import { formatPence, type Pence } from '../shared'
import { announceIfPaid, backingPayment, isLivePayment, releaseAttempt, transitionBooking, type BookingPayment, type BookingState, type PaymentDispute, type PaymentStatus } from '../booking'
import type { BookingPaymentsDeps, BookingPaymentState, BookingPaymentsRepos, PaymentChange, PaymentRecord } from './ports'
import { mayCarryBooking } from './attempt-answer'
import { commitConfirmedSetup } from './card-setup'
import { queueReadyTransfers } from './tutor-share'

export const PAYMENT_EVENT_SOURCE = 'payments'

/** Events about one payment, found by its payment intent. */
const PAYMENT_TYPES = [
  'payment_intent.succeeded',
  'payment_intent.amount_capturable_updated',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
  'charge.succeeded',
  'charge.failed',
  'charge.refunded',
  'charge.dispute.created',
  'charge.dispute.closed',
] as const
/** Events about a tutor's connected account. */
const ACCOUNT_TYPES = ['account.updated', 'payout.paid', 'payout.failed'] as const
/** A far lesson's card setup, confirmed after a 3-D Secure step the customer finished later. */
const SETUP_TYPES = ['setup_intent.succeeded'] as const

export const PAYMENT_EVENT_TYPES = [...PAYMENT_TYPES, ...ACCOUNT_TYPES, ...SETUP_TYPES] as const
export type PaymentEventType = (typeof PAYMENT_EVENT_TYPES)[number]
type PaymentType = (typeof PAYMENT_TYPES)[number]

/** A processor event, reduced to what the payments flow reads. */
export type PaymentEvent = {
  id: string
  type: string
  /** When the processor made it: orders what it says of one account. */
  createdAt?: Date
  /** A Connect event's account: about a tutor's connected account, never a platform payment. */
  connectedAccount?: string
  /** A payment intent's state (`payment_intent.*`); its amount and customer when the event carries them. */
  intent?: {
    id: string
    status: PaymentIntentStatus
    amountPence?: number | null
    customerId?: string | null
    /** The card it charges: tells the intents of one payment apart (a retry with another card makes another). */
    paymentMethodId?: string | null
    amountReceivedPence: number
    lastError: string | null
  }
  /** A card setup's state (`setup_intent.succeeded`): a far lesson's card confirmed, 3-D Secure included. */
  setupIntent?: { id: string; status: string; paymentMethodId: string | null }
  /** A charge's refund total (`charge.refunded`), and what it captured when the event says. */
  refund?: { paymentIntentId: string; amountRefundedPence: number; amountCapturedPence?: number | null }
  /** A charge's outcome (`charge.succeeded|failed`). */
  charge?: { id: string; paymentIntentId: string; capturedPence: number; failureMessage: string | null }
  /** A cardholder's dispute (`charge.dispute.*`). */
  dispute?: { id: string; paymentIntentId: string; status: string; reason: string | null; amountPence: number }
  /** A connected account's state (`account.updated`). */
  account?: { id: string; payoutsEnabled: boolean }
  /** A connected account's payout (`payout.*`). */
  payout?: { id: string; accountId: string; amountPence: number; failureMessage: string | null }
  /** The payment row named in the processor's metadata (`payment_id`), which every intent made here carries. */
  paymentId?: number | null
}

export type PaymentEventOutcome =
  | { outcome: 'handled'; bookingState: BookingState | null }
  | { outcome: 'duplicate' }
  | { outcome: 'ignored'; reason: 'unknown_type' | 'unknown_payment' | 'unknown_account' | 'connected_account' | 'stale' }

/** Timeline entries, one per handled type. */
const TIMELINE_KIND: Record<PaymentType, string> = {
  'payment_intent.succeeded': 'payment.succeeded',
  'payment_intent.amount_capturable_updated': 'payment.amount_capturable_updated',
  'payment_intent.payment_failed': 'payment.payment_failed',
  'payment_intent.canceled': 'payment.canceled',
  'charge.succeeded': 'payment.charge_succeeded',
  'charge.failed': 'payment.charge_failed',
  'charge.refunded': 'payment.refunded',
  'charge.dispute.created': 'payment.dispute_created',
  'charge.dispute.closed': 'payment.dispute_closed',
}

/**
 * The payment webhook. The event id is remembered in the transaction of the change, so a
 * repeat changes nothing; and every change only moves forward, so events in any order end
 * where the processor is: a payment's status never leaves `succeeded` or `canceled` nor
 * falls back from `requires_capture`, amounts captured and refunded only grow, a dispute
 * that closed stays closed, and an account's older state never overwrites a newer one.
 * The booking moves through its machine: an authorisation held is `pay` (manual capture,
 * to REQUIRES_CAPTURE), money taken is `capture` from REQUIRES_CAPTURE or `pay` (immediate,
 * to PAYED) from AWAITING_PAYMENT; one the machine won't move (refunded, cancelled) keeps
 * its state. Failures, cancellations and refunds leave the booking state to their flows.
 * A dispute opened is emailed to staff; a failed payout to the tutor. An account enabled for
 * payouts gets the shares waiting for it, each queued once.
 */
export function recordPaymentEvent(deps: Pick<BookingPaymentsDeps, 'uow' | 'clock' | 'config'>, event: PaymentEvent): ResultAsync<PaymentEventOutcome, never> {
  return new ResultAsync(deps.uow.run((repos) => apply(repos, deps, event).then((outcome) => ok(outcome))))
}

async function apply(repos: BookingPaymentsRepos, deps: Pick<BookingPaymentsDeps, 'clock' | 'config'>, event: PaymentEvent): Promise<PaymentEventOutcome> {
  const now = deps.clock.now()
  const fresh = await repos.webhookEvents.record({ source: PAYMENT_EVENT_SOURCE, eventId: event.id, type: event.type, receivedAt: now })
  if (!fresh) return { outcome: 'duplicate' }
  if (event.account) return applyAccount(repos, event.account, event.createdAt ?? now)
  if (event.payout) return applyPayout(repos, event.type === 'payout.failed' ? 'failed' : 'paid', event.payout, now)
  if (event.setupIntent && event.type === 'setup_intent.succeeded') return event.connectedAccount ? { outcome: 'ignored', reason: 'connected_account' } : applySetup(repos, event.setupIntent, now)
  const type = PAYMENT_TYPES.find((t) => t === event.type)
  const intentId = event.intent?.id ?? event.refund?.paymentIntentId ?? event.charge?.paymentIntentId ?? event.dispute?.paymentIntentId
  if (!type || !intentId) return { outcome: 'ignored', reason: 'unknown_type' }
  // A connected account's own charges are its business: no platform payment moves on them (CONTRACT §15).
  if (event.connectedAccount) return { outcome: 'ignored', reason: 'connected_account' }

  const payment = await locatePayment(repos, event, intentId)
  if (!payment) return { outcome: 'ignored', reason: 'unknown_payment' }
  const change: Change = { ...paymentChange(type, event, payment, now), ...(payment.intentId === null ? { intentId } : {}) }
  const booking = await repos.paymentEvents.lockBooking(payment.bookingId)
  const verdict = booking ? await verdictOn(repos, { type, id: event.id, intent: event.intent }, payment, booking) : 'stale'
  const superseded = verdict === 'released'
  const to = booking ? (verdict === 'carry' ? bookingStateAfter(type, booking) : booking.state) : null
  const changed = superseded || Object.values(change).some((v) => v !== undefined) || (booking !== undefined && to !== booking.state)
  if (!changed) return { outcome: 'ignored', reason: 'stale' }
  await repos.paymentEvents.update(payment.id, { ...change, at: now })
  if (!booking || !to) return { outcome: 'handled', bookingState: null }
  if (to !== booking.state) {
    await repos.paymentEvents.setBookingState(booking.id, to, now)
    const a = await repos.bookings.findById(booking.id)
    if (a) await announceIfPaid(repos, { ...a, booking: { ...a.booking, state: booking.state } }, to, now)
  }
  await repos.paymentEvents.addBookingEvent({
    bookingId: booking.id,
    kind: TIMELINE_KIND[type],
    data: {
      event_id: event.id,
      payment_intent: intentId,
      from: booking.state,
      to,
      ...(event.refund ? { refunded_pence: event.refund.amountRefundedPence } : {}),
      ...(event.dispute ? { dispute: event.dispute.id, dispute_status: event.dispute.status } : {}),
    },
    at: now,
  })
  const dispute = change.dispute
  if (dispute && payment.dispute?.id !== dispute.id) {
    // Staff hear of a dispute once, from whichever of its events arrives first.
    await repos.outbox.enqueue({
      kind: 'email',
      template: 'payment_disputed',
      to: deps.config.internalMailbox,
      data: {
        bookingId: booking.id,
        paymentId: payment.id,
        disputeId: dispute.id,
        status: dispute.status,
        reason: dispute.reason ?? 'not given',
        amount: formatPence(dispute.amountPence),
      },
      dedupeKey: `payment_disputed:${dispute.id}`,
    })
  }
  // Money taken for a tutor whose account was enabled meanwhile goes out now, not at the next sweep.
  if (type === 'payment_intent.succeeded' || type === 'charge.succeeded') await queueReadyTransfers(repos, payment.tutorId, now)
  return { outcome: 'handled', bookingState: to }
}

/**
 * By the intent id the row recorded; else by the payment id in the metadata, which finds a
 * payment whose creating call never answered (no intent id recorded yet). Such an unknown
 * intent is adopted only when it is of the row's amount, card and the payer's processor
 * customer (CONTRACT §15): metadata alone is anyone's to write. And only by a row whose own
 * call may have made it unseen: one an intent left behind by a card change may name as well.
 */
async function locatePayment(repos: BookingPaymentsRepos, event: PaymentEvent, intentId: string): Promise<PaymentRecord | undefined> {
  const known = await repos.paymentEvents.lockByIntentId(intentId)
  if (known || event.paymentId === undefined || event.paymentId === null) return known
  const named = await repos.paymentEvents.lockById(event.paymentId)
  // The intent a retry gave up is not the payment's, whatever its card: its cancel is queued already.
  if (!named || named.intentId !== null || named.voidedIntentId === intentId || !event.intent || !mayHaveMadeUnseen(named)) return undefined
  // A retry with another card left the earlier intent behind: it is not this attempt's, and its release is queued already.
  const method = event.intent.paymentMethodId
  if (method !== undefined && method !== null && method !== named.paymentMethodId) return undefined
  const customer = await repos.paymentCustomers.customerIdOf(named.userId)
  return event.intent.amountPence === named.amountPence && customer !== null && event.intent.customerId === customer ? named : undefined
}

/**
 * What an event saying an attempt holds or took money does (CONTRACT §15): the payment the
 * booking rests on, or an attempt that may carry it (mayCarryBooking), moves the booking
 * (`carry`); one canceled at the processor already (by the outbox, a DELETE or a webhook)
 * is stale; any other (superseded by a newer attempt, released before its answer was known,
 * its booking paid on another payment or closed) is released at the processor and never
 * moves the booking. Events that say nothing is held carry as they are.
 */
async function verdictOn(
  repos: BookingPaymentsRepos,
  event: { type: PaymentType; id: string; intent: PaymentEvent['intent'] },
  before: PaymentRecord,
  booking: BookingPaymentState,
): Promise<'carry' | 'released' | 'stale'> {
  const intent = event.intent
  if (!intent || (event.type !== 'payment_intent.amount_capturable_updated' && event.type !== 'payment_intent.succeeded')) return 'carry'
  const attempts = await repos.payments.listByBooking(before.bookingId)
  const row = attempts.find((p) => p.id === before.id)
  if (!row) return 'stale'
  if (isLivePayment(row) && backingPayment(attempts)?.id === row.id) {
    // The booking's own authorisation (a scheduled one whose answer was lost): captured after the lesson, as its answer would have set.
    if (intent.status === 'requires_capture' && row.captureAt === null) await captureAfterLesson(repos, row)
    return 'carry'
  }
  // A row canceled with its intent known was canceled at the processor: a late authorisation of
  // it is stale. One canceled without (its creating call never answered) had nothing undone
  // there, so what it holds now goes back.
  if (row.status === 'canceled' && row.intentId !== null) return 'stale'
  if (mayCarryBooking(attempts, row, booking)) {
    // An authorisation the booking now rests on is captured after the lesson, as the pay's own answer is.
    if (row.captureAt === null && intent.status === 'requires_capture') await captureAfterLesson(repos, row)
    return 'carry'
  }
  // The row may say canceled (released before the processor's answer was known, and a status
  // never moves back): what the processor says it now holds or took is what goes back.
  await releaseAttempt(
    repos,
    { ...row, intentId: row.intentId ?? intent.id, status: intent.status, capturedPence: Math.max(row.capturedPence, intent.amountReceivedPence) },
    event.id,
  )
  return 'released'
}

/**
 * The rows an unseen intent can be theirs: a creating call in flight or unanswered, a scheduled
 * authorisation whose call threw, or either released before the answer came (verdictOn then
 * gives back what the intent holds).
 */
const mayHaveMadeUnseen = (row: Pick<PaymentRecord, 'status' | 'failedAttempts'>): boolean =>
  row.status === 'requires_confirmation' || row.status === 'canceled' || (row.status === 'scheduled' && row.failedAttempts > 0)

async function captureAfterLesson(repos: BookingPaymentsRepos, row: Pick<BookingPayment, 'id' | 'bookingId'>): Promise<void> {
  const lesson = (await repos.bookings.findById(row.bookingId))?.lesson
  if (lesson) await repos.payments.update(row.id, { captureAt: lesson.finish, authorizeAt: null })
}

/** `setup_intent.succeeded`: the booking waiting on that card setup proceeds, as the return page's refresh moves it (CONTRACT §14-15). */
async function applySetup(repos: BookingPaymentsRepos, setup: NonNullable<PaymentEvent['setupIntent']>, now: Date): Promise<PaymentEventOutcome> {
  if (setup.status !== 'succeeded') return { outcome: 'ignored', reason: 'stale' }
  const payment = await repos.paymentEvents.lockBySetupIntentId(setup.id)
  if (!payment) return { outcome: 'ignored', reason: 'unknown_payment' }
  if (!(await commitConfirmedSetup(repos, payment.bookingId, payment.id, setup.paymentMethodId, now))) return { outcome: 'ignored', reason: 'stale' }
  const booking = await repos.paymentEvents.lockBooking(payment.bookingId)
  return { outcome: 'handled', bookingState: booking?.state ?? null }
}

async function applyAccount(repos: BookingPaymentsRepos, account: NonNullable<PaymentEvent['account']>, at: Date): Promise<PaymentEventOutcome> {
  const known = await repos.payoutAccounts.findById(account.id)
  if (!known) return { outcome: 'ignored', reason: 'unknown_account' }
  const applied = await repos.payoutAccounts.record({ accountId: account.id, userId: known.userId, payoutsEnabled: account.payoutsEnabled, at })
  if (!applied) return { outcome: 'ignored', reason: 'stale' }
  if (account.payoutsEnabled) await queueReadyTransfers(repos, known.userId, at)
  return { outcome: 'handled', bookingState: null }
}

async function applyPayout(repos: BookingPaymentsRepos, status: 'paid' | 'failed', payout: NonNullable<PaymentEvent['payout']>, now: Date): Promise<PaymentEventOutcome> {
  const known = await repos.payoutAccounts.findById(payout.accountId)
  if (!known) return { outcome: 'ignored', reason: 'unknown_account' }
  const changed = await repos.tutorTransfers.recordPayout(
    { id: payout.id, tutorId: known.userId, amountPence: payout.amountPence, status, failureMessage: payout.failureMessage },
    now,
  )
  if (!changed) return { outcome: 'ignored', reason: 'stale' }
  const tutor = status === 'failed' ? await repos.tutorTransfers.contactOf(known.userId) : undefined
  if (tutor) {
    await repos.outbox.enqueue({
      kind: 'email',
      template: 'payout_failed',
      to: tutor.email,
      data: { firstname: tutor.firstname, amount: formatPence(payout.amountPence), reason: payout.failureMessage ?? 'the bank refused it' },
      dedupeKey: `payout_failed:${payout.id}`,
    })
  }
  return { outcome: 'handled', bookingState: null }
}

/** How far a payment has got; a status never moves back. */
const STATUS_RANK: Record<PaymentStatus, number> = {
  scheduled: 0,
  requires_payment_method: 1,
  requires_confirmation: 1,
  requires_action: 2,
  processing: 3,
  requires_capture: 4,
  succeeded: 5,
  canceled: 5,
}

/**
 * The status after an event: a final one (succeeded, canceled) stays, an authorisation held
 * gives way only to a final one, and before that a failure may follow an attempt (3-D Secure
 * refused) but an earlier step arriving late changes nothing.
 */
const nextStatus = (current: PaymentStatus, incoming: PaymentIntentStatus): PaymentIntentStatus | undefined => {
  if (incoming === current) return undefined
  if (STATUS_RANK[current] >= STATUS_RANK.requires_capture && STATUS_RANK[incoming] <= STATUS_RANK[current]) return undefined
  return incoming
}

const DISPUTE_CLOSED = new Set(['won', 'lost', 'warning_closed', 'charge_refunded'])

function disputeAfter(current: PaymentDispute | null, incoming: NonNullable<PaymentEvent['dispute']>, now: Date): PaymentDispute | undefined {
  if (current && current.id === incoming.id && (current.status === incoming.status || (DISPUTE_CLOSED.has(current.status) && !DISPUTE_CLOSED.has(incoming.status)))) {
    return undefined
  }
  return { id: incoming.id, status: incoming.status, reason: incoming.reason, amountPence: incoming.amountPence, openedAt: current?.id === incoming.id ? current.openedAt : now }
}

const grown = (current: Pence, incoming: Pence): Pence | undefined => (incoming > current ? incoming : undefined)

type Change = Omit<PaymentChange, 'at'>

function paymentChange(type: PaymentType, event: PaymentEvent, payment: PaymentRecord, now: Date): Change {
  if (event.refund) {
    // Refunded never exceeds captured: a refund total above what was taken is cut to it.
    const captured = Math.max(payment.capturedPence, event.refund.amountCapturedPence ?? 0)
    return { capturedPence: grown(payment.capturedPence, captured), refundedPence: grown(payment.refundedPence, Math.min(event.refund.amountRefundedPence, captured)) }
  }
  if (event.dispute) return { dispute: disputeAfter(payment.dispute, event.dispute, now) }
  if (event.charge) {
    const settled = STATUS_RANK[payment.status] >= STATUS_RANK.requires_capture
    return {
      capturedPence: payment.status === 'canceled' ? undefined : grown(payment.capturedPence, event.charge.capturedPence),
      // A failed attempt before a successful one is history, not the payment's error.
      lastError: type === 'charge.failed' && !settled ? (event.charge.failureMessage ?? 'The charge failed.') : undefined,
    }
  }
  const intent = event.intent!
  const status = nextStatus(payment.status, intent.status)
  return {
    status,
    // A released authorisation took nothing, whatever a late event says.
    capturedPence: payment.status === 'canceled' ? undefined : grown(payment.capturedPence, intent.amountReceivedPence),
    lastError: status === undefined ? undefined : type === 'payment_intent.payment_failed' ? (intent.lastError ?? 'The payment failed.') : null,
  }
}

function bookingStateAfter(type: PaymentType, booking: BookingPaymentState): BookingState {
  const step =
    type === 'payment_intent.amount_capturable_updated'
      ? transitionBooking(booking.state, 'pay', { capture: 'manual', lessonState: booking.lessonState })
      : type === 'payment_intent.succeeded'
        ? booking.state === 'REQUIRES_CAPTURE'
          ? transitionBooking(booking.state, 'capture', {})
          : transitionBooking(booking.state, 'pay', { capture: 'immediate', lessonState: booking.lessonState })
        : undefined
  return step && step.isOk() ? step.value.to : booking.state
}
