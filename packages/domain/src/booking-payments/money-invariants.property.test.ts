/**
 * Issue 19's invariant suite (CONTRACT §15): a booking driven through generated interleavings
 * of everything that moves its money, over testkit's in-memory world, with the invariants
 * checked after every step and once the queues drain.
 *
 * Steps (rounds in order, the steps of a round at once, each processor answer released when
 * the scheduler says): pays by the booker with five cards (declined, 3-D Secure on charge and
 * setup, authentication required off session), by the tutor and by a stranger; DELETE of any
 * of the booking's payments; PUT of a payment's card (its retry) by booker or tutor; the
 * bank's check passed or not, then the return page; processor webhooks
 * (payment_intent.succeeded|canceled|amount_capturable_updated, charge.refunded,
 * setup_intent.succeeded) of any past event, once or twice; reschedule proposals and
 * approvals by either party; cancellations by student and tutor; time passing (a hold's
 * lapse, an authorisation day, a finished lesson) with the periodic jobs; due-payment runs;
 * outbox drains; the processor's next call of a kind timing out after doing its work,
 * refused, or declined. Pays often give the card of the latest attempt, so they take up an
 * attempt left unanswered. Coupons (none, within the fee, beyond it, 100 %), a tutor with or
 * without a payout account, and the first charge's answer lost vary per run.
 *
 * Invariants after every step: a booking is paid exactly while one live payment backs it;
 * refunded never above captured (rows and processor); a captured lesson pays the tutor the
 * price whatever the coupon (charge share plus the platform's recorded transfer). After the
 * steps: a pay or card change by someone who may not pay made no processor call, and no use
 * case threw unless the processor was made to fail. Once every event is delivered and the
 * queues drain: no processor sync failing, no payment's due work failing, at most one intent
 * of a booking holding money (nothing held or captured twice), the processor agreeing with
 * the payment the booking rests on, a fully refunded booking holding no authorisation.
 *
 * Size: MONEY_INVARIANT_RUNS (CI 1000; a nightly-size run sets more). A failure prints its
 * seed and path; replay it with MONEY_INVARIANT_SEED=<seed> MONEY_INVARIANT_PATH=<path>
 * (`nice npx vitest run packages/domain/src/booking-payments/money-invariants.property.test.ts`).
 */
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { TEST_CARDS, bookingWorld, type FakeProcessorFault, type FaultyCall } from '@tutoring/testkit'
import { ok, type Result } from 'neverthrow'
import type { PaymentProcessor } from '../payments'
import {
  approveLessonReschedule,
  cancelBooking,
  createBooking,
  expireHolds,
  expireReschedules,
  isLivePayment,
  proposeLessonReschedule,
} from '../booking'
import type { Actor } from '../shared'
import { changePaymentMethod } from './change-payment-method'
import { getPaymentStatus } from './get-payment-status'
import { payBooking } from './pay-booking'
import { cancelUnauthenticatedLessons } from './payment-authentication'
import { recordPaymentEvent } from './record-payment-event'
import { releasePayment } from './release-payment'
import { runDuePayments } from './run-due-payments'
import { separateTransferOf, tutorShareOf } from './tutor-share'

const NOW = '2026-06-01T08:00:00Z'
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
/** MONEY_INVARIANT_STATS=1 prints how often each step kind ended each way, and the end states: what the runs exercised. */
const STATS = process.env.MONEY_INVARIANT_STATS ? new Map<string, number>() : undefined
const tally = (key: string) => STATS?.set(key, (STATS.get(key) ?? 0) + 1)
afterAll(() => {
  if (STATS) console.log([...STATS].sort().map(([key, n]) => `${n}\t${key}`).join('\n'))
})
const outcomeOf = (answer: unknown): string =>
  answer && typeof answer === 'object' && 'isOk' in answer
    ? (answer as Result<unknown, { type: string }>).match(() => 'ok', (e) => `err:${e.type}`)
    : answer === undefined
      ? 'nothing'
      : JSON.stringify(answer).slice(0, 80)
const stepName = (x: Step) => [x.kind, 'who' in x ? x.who : '', 'card' in x ? x.card : '', 'type' in x ? x.type : ''].filter(Boolean).join('/')
const RUNS = Number(process.env.MONEY_INVARIANT_RUNS ?? 1000)
const SEED = process.env.MONEY_INVARIANT_SEED === undefined ? undefined : Number(process.env.MONEY_INVARIANT_SEED)
const PATH = process.env.MONEY_INVARIANT_PATH

type World = ReturnType<typeof bookingWorld>
type Serialised = { deps: World['deps']; inTransaction: () => boolean; write: (change: () => void) => Promise<void> }

/** The processor calls whose answers the scheduler delays: each arrives when it says (early, late, after a DELETE or a lapse). */
const SCHEDULED_CALLS = [
  'createPaymentIntent',
  'retrievePaymentIntent',
  'cancelPaymentIntent',
  'capturePaymentIntent',
  'refundPayment',
  'createSetupIntent',
  'retrieveSetupIntent',
  'findPaymentIntentByPaymentId',
] as const

/**
 * The in-memory world with its transactions taken one at a time, as the embedded database's
 * one connection takes them: the use cases' processor calls (outside transactions) still
 * interleave freely, in the order the scheduler picks.
 */
function serialised(world: World, s: fc.Scheduler): Serialised {
  let chain: Promise<unknown> = Promise.resolve()
  let open = 0
  const uow = world.deps.uow
  const run = <T, E>(work: Parameters<typeof uow.run<T, E>>[0]): Promise<Result<T, E>> => {
    const next = chain.then(async () => {
      open++
      try {
        return await uow.run(work)
      } finally {
        open--
      }
    })
    chain = next.catch(() => undefined)
    return next
  }
  const processor = world.deps.processor
  const scheduled: Partial<PaymentProcessor> = {}
  for (const call of SCHEDULED_CALLS) {
    const direct = processor[call].bind(processor) as (...args: unknown[]) => Promise<unknown>
    // A call that fails (a fault switched on) fails when the scheduler releases its answer, not before.
    const answered = (...args: unknown[]) => {
      const answer = direct(...args)
      answer.catch(() => undefined)
      return answer
    }
    Object.assign(scheduled, { [call]: s.scheduleFunction(answered) })
  }
  // A read or write outside any transaction is one of its own, as on the database: it waits for
  // the open one and is never undone by that one's rollback.
  const outside = new Proxy(uow.repos, {
    get: (repos, bag: string) =>
      new Proxy(Reflect.get(repos, bag) as object, {
        get: (_methods, method: string) => (...args: unknown[]) =>
          run(async (inside) => ok(await (Reflect.get(Reflect.get(inside, bag) as object, method) as (...a: unknown[]) => Promise<unknown>)(...args))).then((r) => r._unsafeUnwrap()),
      }),
  })
  const deps = { ...world.deps, uow: { repos: outside, run }, processor: { ...processor, ...scheduled } }
  // The outbox worker's row writes wait for open transactions, as a row lock makes them wait.
  const write = async (change: () => void) => {
    await run(async () => {
      change()
      return ok(undefined)
    })
  }
  // The in-memory stores have no isolation: what a transaction still open wrote is not yet committed.
  return { deps, inTransaction: () => open > 0, write }
}

/** The processor as one step sees it, counting the calls that step makes. */
function counted(processor: PaymentProcessor, calls: { n: number }): PaymentProcessor {
  return new Proxy(processor, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        calls.n++
        return (value as (...a: unknown[]) => unknown).apply(target, args)
      }
    },
  })
}

/** What the processor holds of an intent: authorised, or captured less refunds. */
function heldAt(world: World, intentId: string): number {
  const pi = world.processor.state.intents.find((i) => i.id === intentId)
  if (!pi) return 0
  const refunded = world.processor.state.refunds.filter((r) => r.paymentIntentId === intentId).reduce((sum, r) => sum + r.amountPence, 0)
  return pi.status === 'requires_capture' ? pi.amountCapturablePence : pi.amountReceivedPence - refunded
}

/** CONTRACT §15, checked on every booking after every step. */
function violations(world: World): string[] {
  const found: string[] = []
  for (const b of world.state.bookings) {
    const payments = world.state.payments.filter((p) => p.bookingId === b.id)
    const live = payments.filter(isLivePayment)
    const paid = b.state === 'REQUIRES_CAPTURE' || b.state === 'PAYED'
    if (paid && live.length !== 1) found.push(`booking ${b.id} ${b.state} rests on ${live.length} live payments`)
    // A capture stays one after its refund; any other live payment of an unpaid booking is money held for nothing.
    const holding = live.filter((p) => p.status !== 'succeeded')
    if (!paid && holding.length > 0) found.push(`booking ${b.id} ${b.state} has ${holding.length} live payments`)
    for (const p of payments) {
      if (p.refundedPence > p.capturedPence) found.push(`payment ${p.id} refunded ${p.refundedPence} > captured ${p.capturedPence}`)
      // Every captured lesson owes the tutor the lesson price, whatever the coupon: the charge's share and the platform's transfer.
      if (b.state === 'PAYED' && p.status === 'succeeded' && p.capturedPence === p.amountPence && p.refundedPence === 0) {
        const booking = { lessonPricePence: b.lessonPricePence, refunded: false }
        const paidToTutor = (p.routing?.destinationAccountId ? tutorShareOf(p) : 0) + separateTransferOf(p, booking)
        if (!p.routing) found.push(`payment ${p.id} captured with no routing`)
        else if (paidToTutor !== b.lessonPricePence) found.push(`payment ${p.id} pays the tutor ${paidToTutor}, not the price ${b.lessonPricePence}`)
        const waiting = world.state.tutorTransfers.some((t) => t.paymentId === p.id)
        if (separateTransferOf(p, booking) > 0 && !waiting) found.push(`payment ${p.id} owes the tutor a transfer none records`)
      }
    }
    // At the processor too, refunded never above captured. (Superseded holds are released through
    // the outbox, so the booker may be held more than once until it drains: settledViolations.)
    const intents = world.processor.state.intents.filter((pi) => pi.transferGroup === `booking-${b.id}`)
    for (const pi of intents) if (heldAt(world, pi.id) < 0) found.push(`intent ${pi.id} refunded above what it took`)
  }
  return found
}

/** Once every queue drained: the processor agrees with the rows, and nothing is held twice. */
function settledViolations(world: World): string[] {
  const found: string[] = []
  for (const b of world.state.bookings) {
    const payments = world.state.payments.filter((p) => p.bookingId === b.id)
    const intents = world.processor.state.intents.filter((pi) => pi.transferGroup === `booking-${b.id}`)
    const holding = intents.filter((pi) => heldAt(world, pi.id) > 0)
    if (holding.length > 1) found.push(`booking ${b.id} (${b.state}) is held or charged on ${holding.length} intents: ${holding.map((pi) => `${pi.id} ${pi.status}`).join(', ')}`)
    const backing = payments.findLast(isLivePayment)
    // A release never voids the payment the booking rests on.
    if (backing?.intentId) {
      const pi = intents.find((i) => i.id === backing.intentId)
      if (pi?.status !== backing.status) found.push(`booking ${b.id} rests on payment ${backing.id} (${backing.status}) whose intent is ${pi?.status}`)
    }
    const lesson = world.state.lessons.find((l) => l.id === b.lessonId)
    if (lesson?.state === 'CANCELLED' && b.state === 'REFUNDED' && holding.some((pi) => pi.status === 'requires_capture')) {
      found.push(`cancelled booking ${b.id} still holds an authorisation`)
    }
    for (const p of payments) {
      const pi = p.intentId ? intents.find((i) => i.id === p.intentId) : undefined
      if (pi && p.status === 'requires_capture' && pi.status === 'canceled') found.push(`payment ${p.id} says requires_capture; its intent was cancelled`)
    }
  }
  return found
}

const CARDS = [TEST_CARDS.visa, 'pm_card_mastercard', TEST_CARDS.declined, TEST_CARDS.threeDSecure, TEST_CARDS.authenticationRequired] as const
const WHO = ['student', 'tutor'] as const
const PAYERS = ['student', 'student', 'tutor', 'stranger'] as const
const WEBHOOK_TYPES = ['payment_intent.succeeded', 'payment_intent.canceled', 'payment_intent.amount_capturable_updated', 'charge.refunded', 'setup_intent.succeeded'] as const
const FAULT_CALLS: readonly FaultyCall[] = ['createPaymentIntent', 'capturePaymentIntent', 'cancelPaymentIntent', 'refundPayment', 'createSetupIntent']
const FAULTS: readonly FakeProcessorFault[] = ['timeout', 'refuse', 'decline']

type Step =
  | { kind: 'pay'; card: (typeof CARDS)[number] | 'latest'; who: (typeof PAYERS)[number] }
  | { kind: 'delete'; nth: number }
  | { kind: 'change'; nth: number; card: (typeof CARDS)[number]; who: (typeof WHO)[number] }
  | { kind: 'bankCheck'; nth: number; passed: boolean }
  | { kind: 'webhook'; nth: number; type: (typeof WEBHOOK_TYPES)[number]; twice: boolean }
  | { kind: 'propose'; who: (typeof WHO)[number]; days: number }
  | { kind: 'approve'; who: (typeof WHO)[number] }
  | { kind: 'reschedule'; who: (typeof WHO)[number]; days: number }
  | { kind: 'cancel'; who: (typeof WHO)[number] }
  | { kind: 'time'; minutes: number }
  | { kind: 'due' }
  | { kind: 'drain' }
  | { kind: 'fault'; call: FaultyCall; how: FakeProcessorFault }

const nth = fc.nat({ max: 7 })
// Pays weigh most, so most runs race several of them against the rest.
const step: fc.Arbitrary<Step> = fc.oneof(
  // 'latest': the card of the booking's latest attempt, so a pay often takes up an attempt left unanswered (its key replays the first call).
  { arbitrary: fc.record({ kind: fc.constant('pay' as const), card: fc.constantFrom(...CARDS, 'latest' as const, 'latest' as const), who: fc.constantFrom(...PAYERS) }), weight: 6 },
  { arbitrary: fc.record({ kind: fc.constant('delete' as const), nth }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('change' as const), nth, card: fc.constantFrom(...CARDS), who: fc.constantFrom('student' as const, 'student' as const, 'tutor' as const) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('bankCheck' as const), nth, passed: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('webhook' as const), nth: fc.nat({ max: 15 }), type: fc.constantFrom(...WEBHOOK_TYPES), twice: fc.boolean() }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('propose' as const), who: fc.constantFrom(...WHO), days: fc.constantFrom(-1, 1, 2, 7) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('approve' as const), who: fc.constantFrom(...WHO) }), weight: 1 },
  // A proposal the other party approves at once, so runs move lessons (and their payments) often.
  { arbitrary: fc.record({ kind: fc.constant('reschedule' as const), who: fc.constantFrom(...WHO), days: fc.constantFrom(-1, 1, 2, 7) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('cancel' as const), who: fc.constantFrom(...WHO) }), weight: 1 },
  // A hold's lapse (20 minutes), the authorisation time of a far lesson, a finished lesson.
  { arbitrary: fc.record({ kind: fc.constant('time' as const), minutes: fc.constantFrom(20, 3 * 24 * 60, 10 * 24 * 60) }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'due' as const }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'drain' as const }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('fault' as const), call: fc.constantFrom(...FAULT_CALLS), how: fc.constantFrom(...FAULTS) }), weight: 2 },
)

/** A booking's coupon: none, within the service fee, beyond it, 100 %. */
const COUPONS = [null, { kind: 'fixed', amountOffPence: 100 }, { kind: 'fixed', amountOffPence: 1000 }, { kind: 'percentage', percentOff: 100 }] as const

describe('money holds under generated interleavings (issue 19; replay: MONEY_INVARIANT_SEED, MONEY_INVARIANT_PATH)', () => {
  it(`keeps a paid booking on exactly one live payment, refunds within captures, the tutor paid the price, nothing left failing (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        // Rounds run one after another; the steps of a round run at once.
        // The first round starts with the booker's pay, so most runs have money to move.
        fc.tuple(fc.constantFrom(...CARDS), fc.array(fc.array(step, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 5 })).map(([card, [head, ...tail]]): Step[][] => [
          [{ kind: 'pay', card, who: 'student' }, ...head!],
          ...tail,
        ]),
        fc.integer({ min: 1, max: 9 }),
        fc.constantFrom(...COUPONS),
        fc.boolean(),
        // The first charge's answer lost (the processor did the work): later steps race over an unanswered attempt.
        fc.boolean(),
        async (s, rounds, days, coupon, payoutsEnabled, firstAnswerLost) => {
          const steps = rounds.flat()
          const base = bookingWorld(NOW)
          const { tutor, teach } = base.addTutor()
          if (payoutsEnabled) base.state.payoutAccounts.push({ accountId: `acct_${tutor.id}`, userId: tutor.id, payoutsEnabled: true, at: new Date(0) })
          const student = base.addStudent()
          const stranger = base.addStudent()
          if (coupon) base.addCoupon({ uid: 'MODEL', discount: coupon })
          const start = new Date(Date.parse(NOW) + days * DAY + HOUR)
          const created = await createBooking(base.deps, student, {
            teachId: teach.id,
            subjectLevelId: 1,
            examBoardId: null,
            start,
            finish: new Date(start.getTime() + HOUR),
            lessonType: 'online',
            childIds: [],
            address: null,
            coupon: coupon ? 'MODEL' : null,
          })
          const { booking, lesson } = created._unsafeUnwrap()
          const bookingId = booking.id
          if (firstAnswerLost) base.processor.fail('createPaymentIntent', 'timeout')
          const world = serialised(base, s)
          const actorOf = (who: (typeof PAYERS)[number]): Actor => (who === 'student' ? student : who === 'tutor' ? tutor : stranger)
          const nthOf = <T>(rows: readonly T[], n: number): T | undefined => (rows.length === 0 ? undefined : rows[n % rows.length])
          const payments = () => base.state.payments.filter((p) => p.bookingId === bookingId)
          const delivered = new Set<string>()
          const deliver = async (deps: World['deps'], event: (typeof base.processor.state.events)[number]) => {
            delivered.add(event.id)
            return recordPaymentEvent(deps, event)
          }
          // Calls each step made, so a pay by someone who may not pay is seen to call nothing.
          const callsOf: Array<{ n: number }> = steps.map(() => ({ n: 0 }))
          const run = async (x: Step, i: number): Promise<unknown> => {
            const deps = { ...world.deps, processor: counted(world.deps.processor, callsOf[i]!) }
            switch (x.kind) {
              case 'pay':
                return payBooking(deps, actorOf(x.who), { bookingId, paymentMethod: x.card === 'latest' ? (payments().at(-1)?.paymentMethodId ?? TEST_CARDS.visa) : x.card, coupon: null })
              case 'delete': {
                const p = nthOf(payments(), x.nth)
                return p && releasePayment(deps, student, p.id)
              }
              case 'change': {
                const p = nthOf(payments(), x.nth)
                return p && changePaymentMethod(deps, actorOf(x.who), { paymentId: p.id, paymentMethod: x.card })
              }
              case 'bankCheck': {
                // The customer passes (or gives up) the bank's check, then comes back to the return page.
                const p = nthOf(payments().filter((r) => r.status === 'requires_action'), x.nth)
                if (!p) return undefined
                if (x.passed) base.processor.authenticate(p.intentId ?? p.setupIntentId ?? '')
                return getPaymentStatus(deps, student, p.id)
              }
              case 'webhook': {
                const event = nthOf(base.processor.state.events.filter((e) => e.type === x.type), x.nth) ?? nthOf(base.processor.state.events, x.nth)
                if (!event) return undefined
                const once = await deliver(deps, event)
                return x.twice ? deliver(deps, event) : once
              }
              case 'propose': {
                const current = base.state.lessons.find((l) => l.id === lesson.id)!
                const moved = new Date(current.start.getTime() + x.days * DAY)
                return proposeLessonReschedule(deps, actorOf(x.who), { lessonId: lesson.id, start: moved, finish: new Date(moved.getTime() + HOUR) })
              }
              case 'approve':
                return approveLessonReschedule(deps, actorOf(x.who), lesson.id)
              case 'reschedule': {
                const current = base.state.lessons.find((l) => l.id === lesson.id)!
                const moved = new Date(current.start.getTime() + x.days * DAY)
                const proposed = await proposeLessonReschedule(deps, actorOf(x.who), { lessonId: lesson.id, start: moved, finish: new Date(moved.getTime() + HOUR) })
                return proposed.isErr() ? proposed : approveLessonReschedule(deps, actorOf(x.who === 'tutor' ? 'student' : 'tutor'), lesson.id)
              }
              case 'cancel':
                return cancelBooking(deps, actorOf(x.who), { bookingId })
              case 'time':
                // Time passes and the periodic jobs run, racing whatever else runs.
                base.clock.advance(x.minutes * MINUTE)
                await expireHolds(deps)
                await expireReschedules(deps)
                await cancelUnauthenticatedLessons(deps)
                return runDuePayments(deps)
              case 'due':
                return runDuePayments(deps)
              case 'drain':
                return base.drainProcessorSync(deps.processor, world.write)
              case 'fault':
                base.processor.fail(x.call, x.how)
                return undefined
            }
          }
          const observe = async (x: Step, i: number) => {
            try {
              const answer = await run(x, i)
              tally(`${stepName(x)} -> ${outcomeOf(answer)}`)
              return answer
            } catch (error) {
              tally(`${stepName(x)} -> threw ${String(error).slice(0, 80)}`)
              throw error
            }
          }
          const results: PromiseSettledResult<unknown>[] = []
          let first = 0
          for (const round of rounds) {
            let settled = false
            const offset = first
            first += round.length
            const running = Promise.allSettled(round.map((x, i) => s.schedule(Promise.resolve(x)).then((y) => observe(y, offset + i)))).then((answers) => {
              settled = true
              return answers
            })
            // One scheduled answer at a time, the invariants checked after each; between them the
            // operations run on to their next processor call or finish.
            while (!settled) {
              if (s.count() > 0) {
                await s.waitOne()
                if (!world.inTransaction()) expect(violations(base)).toEqual([])
              } else await new Promise((resolve) => setImmediate(resolve))
            }
            results.push(...(await running))
          }
          // An error a use case throws is a bug unless the processor was made to fail.
          const faulted = firstAnswerLost || steps.some((x) => x.kind === 'fault')
          for (const r of results) if (r.status === 'rejected' && !faulted) throw r.reason
          expect(violations(base)).toEqual([])
          steps.forEach((x, i) => {
            // Who pays is checked before any processor call (CONTRACT §15).
            if ((x.kind === 'pay' || x.kind === 'change') && x.who !== 'student') expect({ step: i, who: x.who, calls: callsOf[i]!.n }).toEqual({ step: i, who: x.who, calls: 0 })
          })

          // The queues drain: the processor answers again, every event is delivered (at least
          // once), the jobs run until the lesson is long over, and the outbox retried.
          base.processor.state.faults.length = 0
          const quiet = base.deps
          for (let round = 0; round < 3; round++) {
            for (const event of [...base.processor.state.events]) if (round > 0 || !delivered.has(event.id)) await deliver(quiet, event)
            await base.drainProcessorSync(quiet.processor)
            base.clock.advance(6 * HOUR)
            await expireHolds(quiet)
            await expireReschedules(quiet)
            await cancelUnauthenticatedLessons(quiet)
            await runDuePayments(quiet)
            await base.drainProcessorSync(quiet.processor)
            base.clock.advance(8 * DAY)
            await runDuePayments(quiet)
            expect(violations(base)).toEqual([])
          }
          const { failing } = await base.drainProcessorSync(quiet.processor)
          expect(failing).toEqual([])
          expect(await quiet.uow.repos.failingPayments.list()).toEqual([])
          expect(settledViolations(base)).toEqual([])
          tally(`end: booking ${base.state.bookings[0]!.state}, lesson ${base.state.lessons[0]!.state}, ${base.processor.state.intents.length} intents`)
        },
      ),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }), ...(PATH === undefined ? {} : { path: PATH }) },
    )
  }, 300_000)
})
