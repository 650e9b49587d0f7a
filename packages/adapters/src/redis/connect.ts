import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import Redis from 'ioredis'
import { recordingSpans } from '../db/query-spans'
import type { Logger } from '../logger'

/**
 * The Redis client shared by the throttle and the caches. Redis is an accelerator here,
 * never a dependency a request waits on: with it down, commands fail at once (no offline
 * queue, a short command timeout) and every user falls back to the process (the throttle
 * to its per-process insurance limiter, caches to memory). ioredis keeps reconnecting; the
 * outage is logged once through the logger when it begins and once when it ends, instead
 * of ioredis's own unhandled-error text on every retry.
 */
export function connectRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1_000,
    connectTimeout: 2_000,
    // Every half second at first, then at most every 5 s, for as long as it takes.
    retryStrategy: (attempt) => Math.min(attempt * 500, 5_000),
  })
  traceCommands(redis)
  let down = false
  redis.on('error', (error: Error) => {
    if (down) return
    down = true
    logger.error({ err: { message: error.message, code: (error as { code?: string }).code } }, 'redis unavailable: throttle counters and caches fall back to this process')
  })
  redis.on('ready', () => {
    if (!down) return
    down = false
    logger.info('redis available again: throttle counters and caches are shared once more')
  })
  return redis
}

/** Asked for at each command, as query-spans.ts explains. */
const tracer = () => trace.getTracer('@tutoring/adapters/redis')

/** Each command as an OpenTelemetry client span, under the active span (what instrumentation-ioredis does, for this client). */
function traceCommands(redis: Redis): void {
  const send = redis.sendCommand.bind(redis)
  redis.sendCommand = (command, stream) => {
    if (!recordingSpans()) return send(command, stream)
    const span = tracer().startSpan(command.name.toUpperCase(), { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'redis', 'db.operation.name': command.name.toUpperCase() } })
    command.promise.then(
      () => span.end(),
      (error: unknown) => {
        span.recordException(error instanceof Error ? error : String(error))
        span.setStatus({ code: SpanStatusCode.ERROR })
        span.end()
      },
    )
    return send(command, stream)
  }
}

/** Resolves when Redis answers a PING now; rejects at once when it is not connected. */
export async function pingRedis(redis: Redis): Promise<void> {
  if (redis.status !== 'ready') throw new Error(`redis is ${redis.status}`)
  await redis.ping()
}

/**
 * Waits until the client is connected, or `timeoutMs` at most: at start-up, so the first
 * requests already share counters. Redis down at start is not fatal (see connectRedis).
 */
export function redisReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve()
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      redis.off('ready', done)
      resolve()
    }
    const timer = setTimeout(done, timeoutMs)
    redis.once('ready', done)
  })
}
