import type { Command } from '../command'
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
  async run({ io, config }) {
    const { failingPayments } = await import('@tutoring/adapters')
    await withServices(config, io, async ({ infra }) => {
      const messages = await infra.outbox.listFailing()
      const payments = await failingPayments(infra.database.db).list()
      if (messages.length + payments.length === 0) {
        io.out('no failing messages')
        return
      }
      io.out(['id', 'kind', 'topic', 'attempts', 'failing since', 'next try', 'last error'].join('\t'))
      for (const row of messages) {
        io.out([row.id, row.kind, row.topic, row.attempts, row.failed_at?.toISOString() ?? '', row.available_at.toISOString(), shortError(row.last_error)].join('\t'))
      }
      for (const p of payments) {
        io.out([`payment:${p.id}`, 'payment', p.work, p.attempts, '', p.retryAt?.toISOString() ?? '', shortError(p.lastError)].join('\t'))
      }
    })
  },
}

/**
 * `outbox:retry ID | payment:ID | --all`: makes the message (or every failing one, or a
 * payment's failing work) due now and runs a delivery pass (or the due-payments job).
 */
export const outboxRetry: Command = {
  name: 'outbox:retry',
  usage: 'ID | payment:ID | --all',
  summary: 'try a queued message, a failing payment (payment:ID) or, with --all, every failing message again now',
  options: { all: { type: 'boolean' } },
  positionals: 1,
  async run({ io, config, values, positionals }) {
    const [given] = positionals
    if (Boolean(values.all) === (given !== undefined)) throw usageError('give either one message id, payment:ID or --all')
    const match = given === undefined ? null : /^(payment:)?([1-9]\d{0,15})$/.exec(given)
    if (given !== undefined && !match) throw usageError(`not a message id: ${given}`)
    const id = match ? Number(match[2]) : undefined
    if (match?.[1]) {
      const [{ failingPayments }, { runDuePayments }] = await Promise.all([import('@tutoring/adapters'), import('@tutoring/domain/booking-payments')])
      await withServices(config, io, async ({ infra, bookings }) => {
        if (!(await failingPayments(infra.database.db).retryNow(id!, infra.clock.now()))) throw new CliError(`no failing payment ${id}`)
        const report = await runDuePayments(bookings)
        io.out(`authorized ${report.authorized}, captured ${report.captured}, failed again ${report.retrying}`)
        if (report.retrying > 0) throw new CliError('the processor refused again; the payment stays due (tutoring outbox:failed shows why)')
      })
      return
    }
    await withServices(config, io, async ({ infra }) => {
      const redriven = await infra.outbox.redrive(id === undefined ? 'all-failing' : { ids: [id] }, infra.clock.now())
      if (id !== undefined && redriven === 0) throw new CliError(`no undelivered message ${id}`)
      const { delivered, failed } = await infra.deliverOutbox(Math.max(redriven, 50))
      io.out(`retrying ${redriven}; delivered ${delivered}, failed ${failed}`)
      if (failed > 0) throw new CliError(`${failed} deliveries failed again; they stay queued (tutoring outbox:failed shows why)`)
    })
  },
}
