import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TEST_CARDS, bookingWorld } from '@tutoring/testkit'
import type { Result } from 'neverthrow'
import { cancelBooking, createBooking, expireHolds, isLivePayment } from '../booking'
import type { Actor } from '../shared'
import { getPaymentStatus } from './get-payment-status'
import { payBooking } from './pay-booking'
import { releasePayment } from './release-payment'
import { runDuePayments } from './run-due-payments'

const NOW = '2026-06-01T08:00:00Z'
const HOUR = 3_600_000
/** CI runs 1000 (MONEY_INVARIANT_RUNS); a nightly-size run sets more. fast-check prints the seed to replay a failure. */
const RUNS = Number(process.env.MONEY_INVARIANT_RUNS ?? 1000)

type World = ReturnType<typeof bookingWorld>

/**
 * The in-memory world with its transactions taken one at a time, as the embedded database's
 * one connection takes them: the use cases' processor calls (outside transactions) still
 * interleave freely, in the order the scheduler picks.
 */
function serialised(world: World, s: fc.Scheduler): World & { inTransaction: () => boolean } {
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
  // Every processor answer arrives when the scheduler says: early, late, after a DELETE or a lapse.
  const deps = {
    ...world.deps,
    uow: { ...uow, run },
    processor: {
      ...processor,
      createPaymentIntent: s.scheduleFunction(processor.createPaymentIntent.bind(processor)),
      retrievePaymentIntent: s.scheduleFunction(processor.retrievePaymentIntent.bind(processor)),
      cancelPaymentIntent: s.scheduleFunction(processor.cancelPaymentIntent.bind(processor)),
      createSetupIntent: s.scheduleFunction(processor.createSetupIntent.bind(processor)),
    },
  }
  // The in-memory stores have no isolation: what a transaction still open wrote is not yet committed.
  return { ...world, deps, inTransaction: () => open > 0 }
}

/** CONTRACT §15, checked on every booking: paid exactly while one live payment backs it; refunded never above captured. */
function violations(world: World): string[] {
  const found: string[] = []
  for (const b of world.state.bookings) {
    const payments = world.state.payments.filter((p) => p.bookingId === b.id)
    const live = payments.filter(isLivePayment)
    const paid = b.state === 'REQUIRES_CAPTURE' || b.state === 'PAYED'
    if (paid && live.length !== 1) found.push(`booking ${b.id} ${b.state} rests on ${live.length} live payments`)
    if (!paid && live.length > 0) found.push(`booking ${b.id} ${b.state} has ${live.length} live payments`)
    for (const p of payments) if (p.refundedPence > p.capturedPence) found.push(`payment ${p.id} refunded ${p.refundedPence} > captured ${p.capturedPence}`)
  }
  return found
}

const CARDS = [TEST_CARDS.visa, 'pm_card_mastercard', TEST_CARDS.declined, TEST_CARDS.threeDSecure] as const

type Step =
  | { kind: 'pay'; card: (typeof CARDS)[number]; who: 'student' | 'tutor' }
  | { kind: 'delete' }
  | { kind: 'status' }
  | { kind: 'cancel'; who: 'student' | 'tutor' }
  | { kind: 'lapse' }
  | { kind: 'due' }

// Pays weigh most, so most runs race several of them against the rest.
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('pay' as const), card: fc.constantFrom(...CARDS), who: fc.constantFrom('student' as const, 'student' as const, 'tutor' as const) }), weight: 6 },
  fc.constant({ kind: 'delete' as const }),
  fc.constant({ kind: 'status' as const }),
  fc.record({ kind: fc.constant('cancel' as const), who: fc.constantFrom('student' as const, 'tutor' as const) }),
  fc.constant({ kind: 'lapse' as const }),
  fc.constant({ kind: 'due' as const }),
)

describe('money holds under generated interleavings (issue 19)', () => {
  it(`keeps a paid booking on exactly one live payment, whatever runs at once (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.array(step, { minLength: 2, maxLength: 6 }), fc.integer({ min: 2, max: 9 }), async (s, steps, days) => {
        const base = bookingWorld(NOW)
        const { tutor, teach } = base.addTutor()
        const student = base.addStudent()
        const start = new Date(Date.parse(`2026-06-0${days > 8 ? 9 : days + 1}T09:00:00Z`))
        const created = await createBooking(base.deps, student, {
          teachId: teach.id,
          subjectLevelId: 1,
          examBoardId: null,
          start,
          finish: new Date(start.getTime() + HOUR),
          lessonType: 'online',
          childIds: [],
          address: null,
          coupon: null,
        })
        const bookingId = created._unsafeUnwrap().booking.id
        const world = serialised(base, s)
        const callsBefore = base.processor.state.calls.length
        const actorOf = (who: 'student' | 'tutor'): Actor => (who === 'student' ? student : tutor)
        const latest = () => base.state.payments.filter((p) => p.bookingId === bookingId).at(-1)
        const run = async (x: Step): Promise<unknown> => {
          switch (x.kind) {
            case 'pay':
              return payBooking(world.deps, actorOf(x.who), { bookingId, paymentMethod: x.card, coupon: null })
            case 'delete': {
              const p = latest()
              return p ? releasePayment(world.deps, student, p.id) : undefined
            }
            case 'status': {
              const p = latest()
              return p ? getPaymentStatus(world.deps, student, p.id) : undefined
            }
            case 'cancel':
              return cancelBooking(world.deps, actorOf(x.who), { bookingId })
            case 'lapse':
              return expireHolds({ ...world.deps, clock: { now: () => new Date(base.clock.now().getTime() + 20 * 60_000) } })
            case 'due':
              return runDuePayments(world.deps)
          }
        }
        const tutorPays = steps.filter((x) => x.kind === 'pay' && x.who === 'tutor').length
        let settled = false
        const running = Promise.allSettled(steps.map((x) => s.schedule(Promise.resolve(x)).then(run))).then(() => (settled = true))
        // One scheduled answer at a time, the invariant checked after each; between them the
        // operations run on to their next processor call or finish.
        while (!settled) {
          if (s.count() > 0) {
            await s.waitOne()
            if (!world.inTransaction()) expect(violations(base)).toEqual([])
          } else await new Promise((resolve) => setImmediate(resolve))
        }
        await running
        expect(violations(base)).toEqual([])
        // The tutor never pays: no processor call was made for their pays alone.
        if (tutorPays === steps.length) expect(base.processor.state.calls.length).toBe(callsBefore)
      }),
      { numRuns: RUNS },
    )
  }, 120_000)
})
