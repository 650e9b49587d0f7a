import type { Command, CommandLine } from '../command'
import { CliError, oneLine, usageError } from '../io'
import { withServices } from '../resources'

const MAX_ERROR = 120
const shortError = (text: string | null): string => {
  const error = oneLine(text ?? '')
  return error.length > MAX_ERROR ? `${error.slice(0, MAX_ERROR - 1)}…` : error
}

/**
 * `outbox:failed`: queued messages past the failing threshold, then payments whose due
 * authorisation or capture the processor keeps refusing. One tab-separated line each.
 */
export const outboxFailed: Command = {
  name: 'outbox:failed',
  usage: '',
  summary: 'list queued messages that keep failing, and payments whose authorisation or capture keeps failing (id, kind, topic, attempts, since, next try, last error); nothing is dropped',
  options: {},
  async run({ io, config, answer }) {
    const { listFailingPayments } = await import('@tutoring/domain/booking-payments')
    await withServices(config, io, async ({ infra, bookings }) => {
      const messages = await infra.outbox.listFailing()
      const payments = await listFailingPayments(bookings)
      const json = {
        messages: messages.map((row) => ({
          id: row.id,
          kind: row.kind,
          topic: row.topic,
          attempts: row.attempts,
          failing_since: row.failed_at?.toISOString() ?? null,
          next_try: row.available_at.toISOString(),
          last_error: row.last_error,
        })),
        payments: payments.map((p) => ({ id: p.id, booking_id: p.bookingId, work: p.work, attempts: p.attempts, next_try: p.retryAt?.toISOString() ?? null, last_error: p.lastError })),
      }
      if (messages.length + payments.length === 0) return answer(json, 'no failing messages')
      answer(json, [
        ['id', 'kind', 'topic', 'attempts', 'failing since', 'next try', 'last error'].join('\t'),
        ...json.messages.map((m) => [m.id, m.kind, m.topic, m.attempts, m.failing_since ?? '', m.next_try, shortError(m.last_error)].join('\t')),
        ...json.payments.map((p) => [`payment:${p.id}`, 'payment', p.work, p.attempts, '', p.next_try ?? '', shortError(p.last_error)].join('\t')),
      ])
    })
  },
}

type RetryTarget = { all: true } | { messageId: number } | { paymentId: number }

/** The one thing `outbox:retry` was asked to try again, from its command line. */
function retryTarget({ values, positionals }: CommandLine): RetryTarget {
  const [given] = positionals
  if (Boolean(values.all) === (given !== undefined)) throw usageError('give either one message id, payment:ID or --all')
  if (given === undefined) return { all: true }
  const match = /^(payment:)?([1-9]\d{0,15})$/.exec(given)
  if (!match) throw usageError(`not a message id: ${given}`)
  return match[1] ? { paymentId: Number(match[2]) } : { messageId: Number(match[2]) }
}

/**
 * `outbox:retry ID | payment:ID | --all`: makes the message (or every failing one, or a
 * payment's failing work) due now and runs a delivery pass (or the due-payments job). The
 * counts are of what was retried: delivered and still queued add up to it; whatever else
 * the same pass delivered is counted apart.
 */
export const outboxRetry: Command = {
  name: 'outbox:retry',
  usage: 'ID | payment:ID | --all',
  summary: 'try a queued message, a failing payment (payment:ID) or, with --all, every failing message again now',
  options: { all: { type: 'boolean' } },
  positionals: 1,
  check: (line) => void retryTarget(line),
  async run({ io, config, answer, ...line }) {
    const target = retryTarget(line)
    if ('paymentId' in target) {
      const { retryFailingPayment } = await import('@tutoring/domain/booking-payments')
      await withServices(config, io, async ({ bookings }) => {
        const retried = await retryFailingPayment(bookings, target.paymentId)
        if (retried.isErr()) throw new CliError(`no failing payment ${target.paymentId}`)
        const report = retried.value
        answer({ payment_id: target.paymentId, ...report }, `authorized ${report.authorized}, captured ${report.captured}, failed again ${report.retrying}`)
        if (report.retrying > 0) throw new CliError('the processor refused again; the payment stays due (tutoring outbox:failed shows why)')
      })
      return
    }
    await withServices(config, io, async ({ infra }) => {
      const ids = await infra.outbox.redrive('all' in target ? 'all-failing' : { ids: [target.messageId] }, infra.clock.now())
      if ('messageId' in target && ids.length === 0) throw new CliError(`no undelivered message ${target.messageId}`)
      const pass = await infra.deliverOutbox(Math.max(ids.length, 50))
      const queued = (await infra.outbox.undelivered(ids)).length
      const delivered = ids.length - queued
      const others = { delivered: Math.max(pass.delivered - delivered, 0), failed: Math.max(pass.failed - queued, 0) }
      const alsoDone = others.delivered + others.failed > 0 ? `; other due messages in the same pass: delivered ${others.delivered}, failed ${others.failed}` : ''
      answer({ retried: ids.length, delivered, still_queued: queued, other_messages: others }, `retried ${ids.length}: delivered ${delivered}, still queued ${queued}${alsoDone}`)
      if (queued > 0) throw new CliError(`${queued} of ${ids.length} failed again; they stay queued (tutoring outbox:failed shows why)`)
    })
  },
}
