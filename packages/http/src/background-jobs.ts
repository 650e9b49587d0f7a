import { countHoursTaught, expireHolds, expireReschedules, sendDueReminders } from '@tutoring/domain/booking'
import { cancelUnauthenticatedLessons, releaseWaitingTransfers, runDuePayments } from '@tutoring/domain/booking-payments'
import { webhookDispatcher } from '@tutoring/domain/integrations'
import { UNCLAIMED_UPLOAD_PURGE_EVERY_MS, type Logger, type Services } from '@tutoring/adapters'
import { metricsOf } from './platform/metrics'
import { webhookPayloads } from './webhook-payloads'

export type Job = { name: string; everyMs: number; run(): Promise<unknown> }

/**
 * Periodic work inside the server: the outbox now, expiries and captures as they land, and
 * the clean-ups. Every job is safe with many instances running it at once (rows are claimed
 * with SKIP LOCKED), so each instance simply runs them all.
 */
export function startBackgroundJobs(services: Services): { stop(deadlineMs?: number): Promise<void> } {
  const { infra, bookings } = services
  const every = infra.config.BACKGROUND_JOBS_INTERVAL_MS
  const webhooks = webhookDispatcher(
    { ...services.integrations, payloads: webhookPayloads(services) },
    { onError: (error) => infra.logger.error({ job: 'webhooks', err: error }, 'webhook delivery failed') },
  )
  const jobs: Job[] = [
    { name: 'outbox', everyMs: 2_000, run: () => infra.deliverOutbox() },
    // Starts what is due and returns: a receiver that never answers holds its own place only.
    { name: 'webhooks', everyMs: 1_000, run: () => webhooks.tick() },
    { name: 'booking-holds', everyMs: 30_000, run: () => expireHolds(bookings) },
    { name: 'reschedule-expiry', everyMs: 60_000, run: () => expireReschedules(bookings) },
    { name: 'hours-taught', everyMs: 60_000, run: () => countHoursTaught(bookings) },
    { name: 'lesson-reminders', everyMs: 60_000, run: () => sendDueReminders(bookings) },
    { name: 'due-payments', everyMs: 60_000, run: () => runDuePayments(bookings) },
    { name: 'unconfirmed-payments', everyMs: 60_000, run: () => cancelUnauthenticatedLessons(bookings) },
    { name: 'waiting-transfers', everyMs: 60_000, run: () => releaseWaitingTransfers(bookings) },
    { name: 'idempotency-purge', everyMs: 3_600_000, run: () => infra.idempotency.purge(infra.clock.now()) },
    { name: 'unclaimed-uploads', everyMs: UNCLAIMED_UPLOAD_PURGE_EVERY_MS, run: () => infra.purgeUnclaimedUploads() },
    { name: 'push-callbacks', everyMs: 3_600_000, run: () => infra.purgePushCallbacks() },
    // Every instance may: the sums stay exact whoever folds (search/sql/online-count.sql).
    { name: 'search-counts', everyMs: 60_000, run: () => infra.compactSearchCounts() },
  ]
  const metrics = metricsOf(services)
  const running = runPeriodically(every === undefined ? jobs : jobs.map((job) => ({ ...job, everyMs: every })), infra.logger, (job, seconds, outcome) => metrics.jobRun(job, seconds, outcome))
  return {
    // Webhook sends under way finish too (each within 10 s); one cut off is sent again after its lease.
    async stop(deadlineMs = 10_000) {
      const started = Date.now()
      await running.stop(deadlineMs)
      let timer: NodeJS.Timeout | undefined
      await Promise.race([webhooks.drain(), new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadlineMs - (Date.now() - started)))))])
      clearTimeout(timer)
    },
  }
}

/** Told of each finished run: its job, how long it took and whether it failed. */
export type JobObserver = (job: string, seconds: number, outcome: 'ok' | 'failed') => void

/**
 * Runs each job every `everyMs` without ever overlapping itself: the next run is planned
 * only when the last one has finished, so a run slower than its interval delays the next
 * instead of piling up beside it. A failure is logged and the job carries on. `stop` plans
 * no more runs and waits for those under way, at most `deadlineMs`.
 */
export function runPeriodically(jobs: readonly Job[], logger: Logger, observe: JobObserver = () => undefined): { stop(deadlineMs?: number): Promise<void> } {
  let stopped = false
  const timers = new Set<NodeJS.Timeout>()
  const running = new Set<Promise<void>>()
  const plan = (job: Job) => {
    const timer = setTimeout(() => {
      timers.delete(timer)
      if (stopped) return
      const started = performance.now()
      const seconds = () => (performance.now() - started) / 1000
      const run = job
        .run()
        .then(
          () => observe(job.name, seconds(), 'ok'),
          (error: unknown) => {
            observe(job.name, seconds(), 'failed')
            logger.error({ job: job.name, err: error }, 'background job failed')
          },
        )
        .finally(() => {
          running.delete(run)
          if (!stopped) plan(job)
        })
      running.add(run)
    }, job.everyMs)
    timers.add(timer)
  }
  jobs.forEach(plan)
  return {
    async stop(deadlineMs = 10_000) {
      stopped = true
      timers.forEach(clearTimeout)
      timers.clear()
      let timer: NodeJS.Timeout | undefined
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          if (running.size > 0) logger.warn({ jobs: running.size }, 'background jobs still running at the shutdown deadline')
          resolve()
        }, deadlineMs)
      })
      await Promise.race([Promise.allSettled([...running]), deadline])
      clearTimeout(timer)
    },
  }
}
