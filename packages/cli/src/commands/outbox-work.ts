import { setTimeout as sleep } from 'node:timers/promises'
import type { Services } from '@tutoring/adapters'
import type { Command, OptionValues } from '../command'
import { CliError, oneLine, usageError } from '../io'
import { withServices } from '../resources'

const BATCH = 50
/** A bound on one pass, so a queue that fills as fast as it drains still lets the command end. */
const MAX_BATCHES = 200

type Totals = { delivered: number; failed: number }

/** Everything due now, batch after batch; failed items wait for their backoff, so this ends. */
async function deliverDue({ infra }: Services): Promise<Totals> {
  const totals = { delivered: 0, failed: 0 }
  for (let i = 0; i < MAX_BATCHES; i++) {
    const { delivered, failed } = await infra.deliverOutbox(BATCH)
    totals.delivered += delivered
    totals.failed += failed
    if (delivered + failed < BATCH) break
  }
  return totals
}

/** `--interval` in seconds, checked before anything loads. */
function intervalOf(values: OptionValues): number {
  const interval = values.interval === undefined ? 2 : Number(values.interval)
  if (!Number.isFinite(interval) || interval <= 0 || interval > 3600) throw usageError('--interval takes seconds, more than 0 and at most 3600')
  return interval
}

const report = (t: Totals) => `delivered ${t.delivered}, failed ${t.failed}`

export const outboxWork: Command = {
  name: 'outbox:work',
  usage: '[--loop] [--interval SECONDS]',
  summary: 'deliver the queued emails, pushes and processor syncs that are due; --loop keeps going until stopped',
  options: { loop: { type: 'boolean' }, interval: { type: 'string' } },
  check: ({ values }) => void intervalOf(values),
  async run({ io, config, values, answer }) {
    const interval = intervalOf(values)
    await withServices(config, io, async (services) => {
      if (!values.loop) {
        const totals = await deliverDue(services)
        answer(totals, report(totals))
        if (totals.failed > 0) {
          throw new CliError(`${totals.failed} of ${totals.delivered + totals.failed} deliveries failed and will be retried (LOG_LEVEL=warn shows why)`)
        }
        return
      }
      if (!values.json) io.out(`delivering the outbox every ${interval} s until stopped`)
      while (!io.signal?.aborted) {
        try {
          const totals = await deliverDue(services)
          // With --json, one JSON line per round that did something.
          if (totals.delivered + totals.failed > 0) answer(totals, report(totals))
        } catch (error) {
          // A database hiccup must not end a long-running worker; the next round retries.
          io.err(`outbox round failed: ${oneLine(error instanceof Error ? error.message : String(error))}`)
        }
        await sleep(interval * 1000, undefined, { signal: io.signal }).catch(() => 'stopped')
      }
      if (!values.json) io.out('stopped')
    })
  },
}
