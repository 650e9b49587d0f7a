import type { Command } from '../command'
import { CliError, oneLine, usageError } from '../io'
import { withServices } from '../resources'

const MAX_ERROR = 120

/** `outbox:failed`: messages past the failing threshold, still queued. One line each. */
export const outboxFailed: Command = {
  name: 'outbox:failed',
  usage: '',
  summary: 'list queued messages that keep failing (id, kind, topic, attempts, last error, next try); they are never dropped',
  options: {},
  async run({ io, config }) {
    await withServices(config, io, async ({ infra }) => {
      const rows = await infra.outbox.listFailing()
      if (rows.length === 0) {
        io.out('no failing messages')
        return
      }
      io.out(['id', 'kind', 'topic', 'attempts', 'failing since', 'next try', 'last error'].join('\t'))
      for (const row of rows) {
        const error = oneLine(row.last_error ?? '')
        io.out(
          [
            row.id,
            row.kind,
            row.topic,
            row.attempts,
            row.failed_at?.toISOString() ?? '',
            row.available_at.toISOString(),
            error.length > MAX_ERROR ? `${error.slice(0, MAX_ERROR - 1)}…` : error,
          ].join('\t'),
        )
      }
    })
  },
}

/** `outbox:retry ID | --all`: makes the message (or every failing one) due now and runs a delivery pass. */
export const outboxRetry: Command = {
  name: 'outbox:retry',
  usage: 'ID | --all',
  summary: 'try a queued message (or, with --all, every failing one) again now, then deliver what is due',
  options: { all: { type: 'boolean' } },
  positionals: 1,
  async run({ io, config, values, positionals }) {
    const [given] = positionals
    if (Boolean(values.all) === (given !== undefined)) throw usageError('give either one message id or --all')
    const id = given === undefined ? undefined : Number(given)
    if (id !== undefined && (!Number.isSafeInteger(id) || id < 1)) throw usageError(`not a message id: ${given}`)
    await withServices(config, io, async ({ infra }) => {
      const now = infra.clock.now()
      const redriven = await infra.outbox.redrive(id === undefined ? 'all-failing' : { ids: [id] }, now)
      if (id !== undefined && redriven === 0) throw new CliError(`no undelivered message ${id}`)
      const { delivered, failed } = await infra.deliverOutbox(Math.max(redriven, 50))
      io.out(`retrying ${redriven}; delivered ${delivered}, failed ${failed}`)
      if (failed > 0) throw new CliError(`${failed} deliveries failed again; they stay queued (tutoring outbox:failed shows why)`)
    })
  },
}
