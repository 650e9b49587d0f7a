/**
 * In-memory stand-ins for the domain's ports, for use-case tests next to the domain code:
 * a clock a test moves, a unit of work that rolls its stores back on Err, an outbox and a
 * webhook log that remember, a payment processor that follows the processor's state model
 * for a handful of test payment methods, and faults a test switches on in any processor.
 */
import { err, ok, type Result } from 'neverthrow'
import type { PaymentEvent } from '@tutoring/domain/booking-payments'
import type { IntegrationEvents } from '@tutoring/domain/integrations'
import type { OutboxMessage } from '@tutoring/domain/outbox'
import type {
  BankAccountDetails,
  CardDetails,
  CreatePaymentIntentInput,
  PaymentIntent,
  PaymentCustomerRepository,
  PaymentProcessor,
  PayoutAccountRepository,
  PayoutAccountState,
  SetupIntent,
} from '@tutoring/domain/payments'
import type { Clock, InboundEvent, UnitOfWork, WebhookEventLog, WithoutLocks } from '@tutoring/domain/shared'

export type FakeClock = Clock & { set(instant: string | Date): void; advance(ms: number): void }

export const fakeClock = (start: string | Date): FakeClock => {
  let now = new Date(start)
  return {
    now: () => new Date(now),
    set: (instant) => {
      now = new Date(instant)
    },
    advance: (ms) => {
      now = new Date(now.getTime() + ms)
    },
  }
}

/** The system clock `ms` ahead, for jobs a test runs as if later. */
export const clockAhead = (ms: number): Clock => ({ now: () => new Date(Date.now() + ms) })

const isLock = (key: string) => key === 'lock' || /^lock[A-Z]/.test(key)

/** The repositories as `uow.repos` offers them: every `lock*` method gone, in nested bags too. */
function withoutLocks<Repos>(repos: Repos): WithoutLocks<Repos> {
  const strip = (bag: unknown): unknown =>
    typeof bag === 'object' && bag !== null
      ? Object.fromEntries(Object.entries(bag).filter(([key]) => !isLock(key)).map(([key, value]) => [key, typeof value === 'function' ? value : strip(value)]))
      : bag
  return strip(repos) as WithoutLocks<Repos>
}

/**
 * A unit of work over in-memory stores. `state` is the stores' data: `run` copies it before
 * the work and puts the copy back when the work answers Err or throws, as a rolled-back
 * transaction would. Repositories must read `state` afresh on every call. Outside `run` the
 * repositories have no locks, as in production.
 */
export function memoryUnitOfWork<Repos, State extends object>(repos: Repos, state: State): UnitOfWork<Repos> {
  return {
    repos: withoutLocks(repos),
    async run<T, E>(work: (repos: Repos) => Promise<Result<T, E>>): Promise<Result<T, E>> {
      const before = structuredClone(state)
      const rollBack = () => Object.assign(state, before)
      try {
        const result = await work(repos)
        if (result.isErr()) rollBack()
        return result
      } catch (error) {
        rollBack()
        throw error
      }
    },
  }
}

/** The stores' part of an outbox: what a use case queued, in order. */
export const outboxOf = (state: { outbox: OutboxMessage[] }) => ({
  enqueue: async (message: OutboxMessage) => {
    state.outbox.push(message)
  },
})

/** What a use case recorded for integrators: the type, what it is about and whose endpoints hear of it. */
export type IntegrationEventRecord = Parameters<IntegrationEvents['record']>[0]

/** Records events in memory; `recordFor` (one endpoint's test event) is the adapters' alone. */
export const integrationEventsOf = (state: { integrationEvents: IntegrationEventRecord[] }): IntegrationEvents => ({
  record: async (event) => {
    state.integrationEvents.push(structuredClone(event))
  },
  recordFor: notFakedIn('booking world')('integrationEvents.recordFor'),
})

export const webhookEventLogOf = (state: { webhookEvents: string[] }): WebhookEventLog => ({
  record: async (event: InboundEvent) => {
    const key = `${event.source}:${event.eventId}`
    if (state.webhookEvents.includes(key)) return false
    state.webhookEvents.push(key)
    return true
  },
})

/** Test payment methods, as the processor's test mode names them. */
export const TEST_CARDS = {
  visa: 'pm_card_visa',
  /** Attaches, but every charge is declined. */
  declined: 'pm_card_chargeDeclined',
  /** Attaches, and asks for 3-D Secure on charge (on session) and on its card setup. */
  threeDSecure: 'pm_card_threeDSecure2Required',
  /** Asks for 3-D Secure on every charge, off session too: there it fails `authentication_required`. */
  authenticationRequired: 'pm_card_authenticationRequired',
  /** Refused when attached. */
  expired: 'pm_card_expired',
} as const

/** What the fake processor holds: customers, payment methods, intents, and every money-moving call. */
export type FakeProcessorState = {
  customers: string[]
  attached: Array<{ customerId: string; paymentMethodId: string }>
  intents: PaymentIntent[]
  calls: Array<{ call: string; idempotencyKey?: string; id?: string; amountPence?: number }>
  refunds: Array<{ paymentIntentId: string; amountPence: number }>
  setups: SetupIntent[]
  /** What the processor would send to the payment webhook, in the order it happened. */
  events: PaymentEvent[]
  /** Faults a test switched on, each taken by the next call of its kind (FakeProcessorFault). */
  faults: Array<{ call: FaultyCall; how: FakeProcessorFault }>
}

/** The calls a test can make fail. */
export type FaultyCall = 'createPaymentIntent' | 'capturePaymentIntent' | 'cancelPaymentIntent' | 'refundPayment' | 'createSetupIntent' | 'retrievePaymentIntent'

/**
 * How the next call of a kind fails: `timeout` does the work at the processor and then throws
 * to the caller, as an answer lost on the way back (the webhook still tells); `refuse` throws
 * before doing anything (the processor down or refusing); `decline` answers a charge as the
 * bank declining the card.
 */
export type FakeProcessorFault = 'timeout' | 'refuse' | 'decline'

const cardOf = (paymentMethodId: string): Result<CardDetails, { type: 'CardRejected'; reason: string }> =>
  paymentMethodId === TEST_CARDS.expired || !paymentMethodId.startsWith('pm_')
    ? err({ type: 'CardRejected', reason: paymentMethodId === TEST_CARDS.expired ? 'Your card has expired.' : 'No such payment method.' })
    : ok({ paymentMethodId, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 })

/**
 * A processor that keeps its state in memory: manual-capture intents answer requires_capture
 * (automatic ones succeeded), the declined card answers PaymentFailed, the 3-D Secure card
 * requires_action with a redirect (its card setup too, as the offline processor and Stripe
 * do) until `authenticate` says the customer passed the bank's check. A repeated idempotency
 * key answers the first intent again. Like the processor, it refuses to capture a cancelled
 * intent or refund more than it took, and records the events its webhook would send.
 */
export function fakePaymentProcessor(): PaymentProcessor & { state: FakeProcessorState; authenticate(id: string): void; fail(call: FaultyCall, how: FakeProcessorFault): void } {
  const state: FakeProcessorState = { customers: [], attached: [], intents: [], calls: [], refunds: [], setups: [], events: [], faults: [] }
  let next = 1
  const intent = (id: string): PaymentIntent => {
    const found = state.intents.find((i) => i.id === id)
    if (!found) throw new Error(`no such payment intent: ${id}`)
    return found
  }
  const keys = new Map<string, string>()
  const keyAsked = new Map<string, string>()
  const byPayment = new Map<string, string>()
  const ownerOf = new Map<string, { customerId: string; paymentId: number | null; paymentMethodId: string }>()
  const refundedOf = (id: string) => state.refunds.filter((r) => r.paymentIntentId === id).reduce((sum, r) => sum + r.amountPence, 0)
  const fault = (call: FaultyCall): FakeProcessorFault | undefined => {
    const i = state.faults.findIndex((f) => f.call === call)
    return i < 0 ? undefined : state.faults.splice(i, 1)[0]!.how
  }
  const refuse = (call: FaultyCall, how: FakeProcessorFault | undefined) => {
    if (how === 'refuse') throw new Error(`the processor refused ${call}`)
  }
  const timedOut = <T>(call: FaultyCall, how: FakeProcessorFault | undefined, answer: T): T => {
    if (how === 'timeout') throw new Error(`the processor did not answer ${call} in time`)
    return answer
  }
  const emit = (type: string, pi: PaymentIntent) => {
    const owner = ownerOf.get(pi.id)
    const base = { id: `evt_${next++}`, type, paymentId: owner?.paymentId ?? null }
    const refunded = refundedOf(pi.id)
    state.events.push(
      type === 'charge.refunded'
        ? { ...base, refund: { paymentIntentId: pi.id, amountRefundedPence: refunded, amountCapturedPence: pi.amountReceivedPence } }
        : { ...base, intent: { id: pi.id, status: pi.status, amountPence: pi.amountPence, customerId: owner?.customerId ?? null, paymentMethodId: owner?.paymentMethodId ?? null, amountReceivedPence: pi.amountReceivedPence, lastError: null } },
    )
  }
  return {
    state,
    fail(call, how) {
      state.faults.push({ call, how })
    },
    /** The customer passes the bank's check of an intent or a card setup waiting for it. */
    authenticate(id) {
      const setup = state.setups.find((s) => s.id === id)
      if (setup?.status === 'requires_action') {
        Object.assign(setup, { status: 'succeeded', redirectUrl: null })
        state.events.push({ id: `evt_${next++}`, type: 'setup_intent.succeeded', setupIntent: { id: setup.id, status: 'succeeded', paymentMethodId: setup.paymentMethodId } })
        return
      }
      const pi = state.intents.find((i) => i.id === id)
      if (pi?.status !== 'requires_action') return
      Object.assign(pi, { status: 'requires_capture', amountCapturablePence: pi.amountPence, redirectUrl: null, latestChargeId: `ch_${pi.id}` })
      emit('payment_intent.amount_capturable_updated', pi)
    },
    mode: 'offline',
    async createCustomer() {
      const customerId = `cus_${next++}`
      state.customers.push(customerId)
      return { customerId }
    },
    async deleteCustomer(customerId) {
      state.customers = state.customers.filter((c) => c !== customerId)
    },
    async updateCustomer() {},
    async attachCard(customerId, paymentMethodId) {
      const card = cardOf(paymentMethodId)
      if (card.isOk()) state.attached.push({ customerId, paymentMethodId })
      return card
    },
    async createSubscription() {
      return { subscriptionId: `sub_${next++}`, status: 'trialing', trialEndsAt: null, currentPeriodEnd: null }
    },
    async createPaymentIntent(input: CreatePaymentIntentInput) {
      const how = fault('createPaymentIntent')
      refuse('createPaymentIntent', how)
      state.calls.push({ call: 'createPaymentIntent', idempotencyKey: input.idempotencyKey, amountPence: input.amountPence })
      const repeated = keys.get(input.idempotencyKey)
      // As Stripe does, a key is bound to what its first call asked: the same key asking anything else is refused.
      const asked = JSON.stringify([input.customerId, input.paymentMethodId, input.amountPence, input.captureMethod, input.offSession])
      if (repeated && keyAsked.get(input.idempotencyKey) !== asked) throw new Error(`idempotency key ${input.idempotencyKey} reused with different parameters`)
      keyAsked.set(input.idempotencyKey, asked)
      const declined = err({ type: 'PaymentFailed' as const, reason: 'Your card was declined.' })
      // A key's answer is replayed, a decline's too.
      if (repeated === 'declined') return timedOut('createPaymentIntent', how, declined)
      if (repeated) return timedOut('createPaymentIntent', how, ok(structuredClone(intent(repeated))))
      if (input.paymentMethodId === TEST_CARDS.declined || how === 'decline') {
        keys.set(input.idempotencyKey, 'declined')
        return declined
      }
      const id = `pi_${next++}`
      const action = (input.paymentMethodId === TEST_CARDS.threeDSecure && !input.offSession) || input.paymentMethodId === TEST_CARDS.authenticationRequired
      const manual = input.captureMethod === 'manual'
      const created: PaymentIntent = {
        id,
        status: action ? 'requires_action' : manual ? 'requires_capture' : 'succeeded',
        amountPence: input.amountPence,
        amountCapturablePence: !action && manual ? input.amountPence : 0,
        amountReceivedPence: !action && !manual ? input.amountPence : 0,
        clientSecret: `${id}_secret`,
        redirectUrl: action ? `https://processor.test/3ds/${id}` : null,
        latestChargeId: action ? null : `ch_${id}`,
        transferGroup: input.transferGroup ?? null,
      }
      state.intents.push(created)
      keys.set(input.idempotencyKey, id)
      const paymentId = input.metadata.payment_id
      if (paymentId) byPayment.set(paymentId, id)
      ownerOf.set(id, { customerId: input.customerId, paymentId: paymentId ? Number(paymentId) : null, paymentMethodId: input.paymentMethodId })
      if (created.status !== 'requires_action') emit(manual ? 'payment_intent.amount_capturable_updated' : 'payment_intent.succeeded', created)
      if (action && input.offSession) {
        const failed = err({ type: 'PaymentFailed' as const, reason: 'Your card was declined. This transaction requires authentication.', code: 'authentication_required', paymentIntentId: id })
        return timedOut('createPaymentIntent', how, failed)
      }
      return timedOut('createPaymentIntent', how, ok(structuredClone(created)))
    },
    async retrievePaymentIntent(id) {
      refuse('retrievePaymentIntent', fault('retrievePaymentIntent'))
      return structuredClone(intent(id))
    },
    async findPaymentIntentByPaymentId(paymentId) {
      const id = byPayment.get(String(paymentId))
      return id ? structuredClone(intent(id)) : null
    },
    async capturePaymentIntent(id, input) {
      const how = fault('capturePaymentIntent')
      refuse('capturePaymentIntent', how)
      state.calls.push({ call: 'capturePaymentIntent', id, idempotencyKey: input.idempotencyKey, amountPence: input.amountPence })
      const pi = intent(id)
      if (pi.status === 'canceled') throw new Error(`This PaymentIntent could not be captured because it has a status of canceled (${id})`)
      if (pi.status === 'requires_capture') {
        Object.assign(pi, { status: 'succeeded', amountReceivedPence: input.amountPence ?? pi.amountCapturablePence, amountCapturablePence: 0 })
        emit('payment_intent.succeeded', pi)
      }
      return timedOut('capturePaymentIntent', how, structuredClone(pi))
    },
    async cancelPaymentIntent(id, input) {
      const how = fault('cancelPaymentIntent')
      refuse('cancelPaymentIntent', how)
      state.calls.push({ call: 'cancelPaymentIntent', id, idempotencyKey: input.idempotencyKey })
      const pi = intent(id)
      if (pi.status !== 'succeeded' && pi.status !== 'canceled') {
        Object.assign(pi, { status: 'canceled', amountCapturablePence: 0 })
        emit('payment_intent.canceled', pi)
      }
      return timedOut('cancelPaymentIntent', how, structuredClone(pi))
    },
    async refundPayment(paymentIntentId, input) {
      const how = fault('refundPayment')
      refuse('refundPayment', how)
      state.calls.push({ call: 'refundPayment', id: paymentIntentId, idempotencyKey: input.idempotencyKey, amountPence: input.amountPence })
      const pi = intent(paymentIntentId)
      const repeated = keys.get(input.idempotencyKey)
      if (repeated) return timedOut('refundPayment', how, { refundId: repeated, amountPence: input.amountPence })
      if (input.amountPence > pi.amountReceivedPence - refundedOf(paymentIntentId)) throw new Error(`Refund amount is greater than unrefunded amount on charge (${paymentIntentId})`)
      const refundId = `re_${next++}`
      keys.set(input.idempotencyKey, refundId)
      state.refunds.push({ paymentIntentId, amountPence: input.amountPence })
      emit('charge.refunded', pi)
      return timedOut('refundPayment', how, { refundId, amountPence: input.amountPence })
    },
    async createSetupIntent(input) {
      const how = fault('createSetupIntent')
      refuse('createSetupIntent', how)
      const card = cardOf(input.paymentMethodId ?? 'pm_unconfirmed')
      if (card.isErr() && input.paymentMethodId !== null) return err(card.error)
      const repeated = state.setups.find((s) => keys.get(input.idempotencyKey) === s.id)
      if (repeated) return timedOut('createSetupIntent', how, ok(structuredClone(repeated)))
      const id = `seti_${next++}`
      const action = input.paymentMethodId === TEST_CARDS.threeDSecure || input.paymentMethodId === TEST_CARDS.authenticationRequired
      const setup: SetupIntent = {
        id,
        status: input.paymentMethodId === null ? 'requires_payment_method' : action ? 'requires_action' : 'succeeded',
        customerId: input.customerId,
        paymentMethodId: input.paymentMethodId,
        clientSecret: `seti_secret_${next}`,
        redirectUrl: action ? `https://processor.test/3ds/${id}` : null,
      }
      keys.set(input.idempotencyKey, id)
      state.setups.push(setup)
      return timedOut('createSetupIntent', how, ok(structuredClone(setup)))
    },
    async retrieveSetupIntent(setupIntentId) {
      const setup = state.setups.find((s) => s.id === setupIntentId)
      if (!setup) throw new Error(`no such setup intent: ${setupIntentId}`)
      return structuredClone(setup)
    },
    async createTransfer(input) {
      state.calls.push({ call: 'createTransfer', idempotencyKey: input.idempotencyKey, amountPence: input.amountPence })
      return { id: `tr_${next++}`, accountId: input.accountId, amountPence: input.amountPence, reversedPence: 0, sourceChargeId: input.sourceChargeId, transferGroup: input.transferGroup }
    },
    async reverseTransfer(transferId, input) {
      state.calls.push({ call: 'reverseTransfer', id: transferId, idempotencyKey: input.idempotencyKey, amountPence: input.amountPence })
      return { reversalId: `trr_${next++}`, amountPence: input.amountPence }
    },
    async retrieveConnectedAccount(accountId) {
      return { id: accountId, payoutsEnabled: true, chargesEnabled: true, detailsSubmitted: true, requirementsDue: [] }
    },
    async checkCard(paymentMethodId) {
      return cardOf(paymentMethodId)
    },
    async setDefaultCard() {},
    async detachCard(paymentMethodId) {
      state.attached = state.attached.filter((a) => a.paymentMethodId !== paymentMethodId)
    },
    async tokenizeBankAccount(details: BankAccountDetails) {
      if (!/^\d{6}$/.test(details.sortCode)) return err({ type: 'BankAccountRejected', reason: 'Invalid sort code.' })
      if (!/^\d{8}$/.test(details.accountNumber)) return err({ type: 'BankAccountRejected', reason: 'Invalid account number.' })
      return ok({ token: `btok_${next++}` })
    },
    async createExternalAccount(input) {
      state.calls.push({ call: 'createExternalAccount', idempotencyKey: input.idempotencyKey })
      const repeated = keys.get(input.idempotencyKey)
      const accountId = input.accountId ?? repeated ?? `acct_${next++}`
      keys.set(input.idempotencyKey, accountId)
      return { accountId, bankAccountId: `ba_${input.idempotencyKey}` }
    },
    async createBillingPortalSession(input) {
      return { url: `https://processor.test/portal/${input.customerId}/${input.flow}` }
    },
  }
}

/** A repository method a world leaves out: calling it is a bug in the test. */
export const notFakedIn = (world: string) => (what: string) => () => {
  throw new Error(`${what} is not part of the ${world}`)
}

/** Processor customers in memory, one per user: the first claim wins. */
export const paymentCustomersOf = (state: { customers: Array<{ userId: number; customerId: string }> }): PaymentCustomerRepository => ({
  customerIdOf: async (userId) => state.customers.find((c) => c.userId === userId)?.customerId ?? null,
  claim: async (userId, customerId) => {
    if (state.customers.some((c) => c.userId === userId)) return false
    state.customers.push({ userId, customerId })
    return true
  },
})

/** Connected accounts in memory: what the processor last said of each, newest word wins. */
export const payoutAccountsOf = (state: { payoutAccounts: Array<PayoutAccountState & { at: Date }> }): PayoutAccountRepository => {
  const answer = (found: (PayoutAccountState & { at: Date }) | undefined) => found && { accountId: found.accountId, userId: found.userId, payoutsEnabled: found.payoutsEnabled }
  return {
    ofUser: async (userId) => answer(state.payoutAccounts.find((a) => a.userId === userId)),
    findById: async (accountId) => answer(state.payoutAccounts.find((a) => a.accountId === accountId)),
    record: async (word) => {
      const known = state.payoutAccounts.find((a) => a.accountId === word.accountId)
      const at = word.at ?? new Date(0)
      if (known && (word.at === null || known.at > at)) return false
      if (known) Object.assign(known, { ...word, at })
      else state.payoutAccounts.push({ ...word, at })
      return true
    },
  }
}

/**
 * Any processor (the offline one, say) with faults a test switches on: captures of the listed
 * intents are refused (as a processor refuses a capture: the call throws).
 */
export function faultyProcessor() {
  const refuseCaptureOf = new Set<string>()
  const calls = { captures: [] as string[] }
  const wrap = (processor: PaymentProcessor): PaymentProcessor => ({
    ...processor,
    async capturePaymentIntent(id, input) {
      calls.captures.push(id)
      if (refuseCaptureOf.has(id)) throw new Error(`This PaymentIntent could not be captured (${id})`)
      return processor.capturePaymentIntent(id, input)
    },
  })
  return { wrap, refuseCaptureOf, calls }
}
