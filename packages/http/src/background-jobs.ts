import { countHoursTaught, expireHolds, expireReschedules, sendDueReminders } from '@tutoring/domain/booking'
import { cancelUnauthenticatedLessons, releaseWaitingTransfers, runDuePayments } from '@tutoring/domain/booking-payments'
import { UNCLAIMED_UPLOAD_PURGE_EVERY_MS, type Logger, type Services } from '@tutoring/adapters'

export type Job = { name: string; everyMs: number; run(): Promise<unknown> }

/**
 * Periodic work inside the server: the outbox now, expiries and captures as they land, and
 * the clean-ups. Every job is safe with many instances running it at once (rows are claimed
 * with SKIP LOCKED), so each instance simply runs them all.
 */
export function startBackgroundJobs(services: Services): { stop(deadlineMs?: number): Promise<void> } {
  const { infra, bookings } = services
  const every = infra.config.BACKGROUND_JOBS_INTERVAL_MS
  const jobs: Job[] = [
    { name: 'outbox', everyMs: 2_000, run: () => infra.deliverOutbox() },
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
  ]
  return runPeriodically(every === undefined ? jobs : jobs.map((job) => ({ ...job, everyMs: every })), infra.logger)
}

/**
 * Runs each job every `everyMs` without ever overlapping itself: the next run is planned
 * only when the last one has finished, so a run slower than its interval delays the next
 * instead of piling up beside it. A failure is logged and the job carries on. `stop` plans
 * no more runs and waits for those under way, at most `deadlineMs`.
 */
export function runPeriodically(jobs: readonly Job[], logger: Logger): { stop(deadlineMs?: number): Promise<void> } {
  let stopped = false
  const timers = new Set<NodeJS.Timeout>()
  const running = new Set<Promise<void>>()
  const plan = (job: Job) => {
    const timer = setTimeout(() => {
      timers.delete(timer)
      if (stopped) return
      const run = job
        .run()
        .then(
          () => undefined,
          (error: unknown) => logger.error({ job: job.name, err: error }, 'background job failed'),
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
