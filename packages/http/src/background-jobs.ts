import { expireHolds, expireReschedules, runDuePayments } from '@tutoring/domain'
import type { Services } from '@tutoring/adapters'

type Job = { name: string; everyMs: number; run(): Promise<unknown> }

/**
 * Periodic work inside the server: the outbox now, expiries and captures as they land.
 * Every job is safe with many instances running it at once (rows are claimed with
 * SKIP LOCKED), so each instance simply runs them all.
 */
export function startBackgroundJobs(services: Services): { stop(): Promise<void> } {
  const { infra, bookings } = services
  const jobs: Job[] = [
    { name: 'outbox', everyMs: 2_000, run: () => infra.deliverOutbox() },
    { name: 'booking-holds', everyMs: 30_000, run: () => expireHolds(bookings) },
    { name: 'reschedule-expiry', everyMs: 60_000, run: () => expireReschedules(bookings) },
    { name: 'due-payments', everyMs: 60_000, run: () => runDuePayments(bookings) },
    { name: 'idempotency-purge', everyMs: 3_600_000, run: () => infra.idempotency.purge(infra.clock.now()) },
  ]
  let stopped = false
  const running = new Set<Promise<unknown>>()
  const timers = jobs.map((job) =>
    setInterval(() => {
      if (stopped) return
      const run = job
        .run()
        .catch((error: unknown) => infra.logger.error({ job: job.name, err: error }, 'background job failed'))
        .finally(() => running.delete(run))
      running.add(run)
    }, job.everyMs),
  )
  return {
    async stop() {
      stopped = true
      timers.forEach(clearInterval)
      await Promise.allSettled([...running])
    },
  }
}
