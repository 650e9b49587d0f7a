import type Redis from 'ioredis'
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely'
import type pg from 'pg'
import type { Logger } from '../logger'
import { idleStorage } from './idle-storage'

/**
 * CONTRACT §16 `DATABASE_READ_URL`: search, availability and reference reads go to a
 * streaming replica unless it lags beyond `READ_REPLICA_MAX_LAG_MS`, is down, or the caller
 * wrote within `READ_AFTER_WRITE_MS` (they must see their own write).
 */

/** How far behind the primary the replica is, watched by polling both. */
export interface ReplicaMonitor {
  /** The replica answers and is at most the allowed lag behind. */
  usable(): boolean
  /** Milliseconds behind at the last poll; undefined while the replica does not answer. */
  lagMs(): number | undefined
  /** A query on the replica failed to connect: reads go to the primary until a poll finds it again. */
  markDown(error: unknown): void
  stop(): void
}

type LsnSample = { at: number; lsn: bigint }

/** `0/3000060` as a number, so two positions in the log compare. */
export const parseLsn = (text: string): bigint => {
  const [hi = '0', lo = '0'] = text.split('/')
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`)
}

/**
 * The lag measured in time, without trusting the replay timestamp (it stands still while the
 * primary is idle): every poll notes the primary's log position with the time; the replica
 * has replayed everything up to the newest noted position it has reached, so it is behind by
 * at most the time since that note. Caught up with the primary's current position: 0.
 */
export function replicaMonitor(options: {
  primary: pg.Pool
  replica: pg.Pool
  maxLagMs: number
  intervalMs?: number
  logger: Logger
  now?: () => number
}): ReplicaMonitor {
  const now = options.now ?? Date.now
  const intervalMs = options.intervalMs ?? Math.max(50, Math.min(500, Math.floor(options.maxLagMs / 4)))
  const samples: LsnSample[] = []
  let lag: number | undefined
  let answering = false
  let announced: boolean | undefined

  const announce = (usable: boolean, detail: Record<string, unknown>) => {
    if (announced === usable) return
    announced = usable
    if (usable) options.logger.info(detail, 'read replica in use')
    else options.logger.warn(detail, 'reads go to the primary: the replica is down or behind')
  }

  async function poll(): Promise<void> {
    try {
      const primary = await options.primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn')
      const at = now()
      samples.push({ at, lsn: parseLsn(primary.rows[0]!.lsn) })
      // Enough history to measure up to the limit and a little beyond it.
      while (samples.length > 2 && samples[1]!.at < at - options.maxLagMs * 2 - intervalMs * 4) samples.shift()
      const replica = await options.replica.query<{ lsn: string | null }>('select pg_last_wal_replay_lsn()::text as lsn')
      const replayed = replica.rows[0]?.lsn ? parseLsn(replica.rows[0].lsn) : -1n
      const reached = samples.filter((s) => s.lsn <= replayed).at(-1)
      lag = reached === samples.at(-1) ? 0 : reached ? now() - reached.at : now() - samples[0]!.at + intervalMs
      answering = true
      announce(lag <= options.maxLagMs, { lagMs: lag })
    } catch (error) {
      answering = false
      lag = undefined
      announce(false, { err: error instanceof Error ? error.message : String(error) })
    }
  }

  let stopped = false
  let timer: NodeJS.Timeout | undefined
  const loop = async () => {
    await poll()
    if (!stopped) timer = setTimeout(() => void loop(), intervalMs).unref()
  }
  void loop()

  return {
    usable: () => answering && lag !== undefined && lag <= options.maxLagMs,
    lagMs: () => lag,
    markDown(error) {
      answering = false
      lag = undefined
      announce(false, { err: error instanceof Error ? error.message : String(error) })
    },
    stop() {
      stopped = true
      clearTimeout(timer)
    },
  }
}

/** Set while a request whose reads may use the replica runs (see `onReplica`). */
const replicaReads = idleStorage<true>()

/**
 * The pool Kysely queries through when a replica is configured: a connection is taken from
 * the replica inside `onReplica` while the monitor finds it usable, else from the primary.
 * A replica that refuses the connection sends this read, and the next ones, to the primary.
 */
export function routingPool(primary: PostgresPool, replica: PostgresPool, monitor: ReplicaMonitor): PostgresPool {
  return {
    async connect() {
      if (replicaReads.getStore() && monitor.usable()) {
        try {
          return failingOver(await replica.connect(), primary, monitor)
        } catch (error) {
          monitor.markDown(error)
        }
      }
      return primary.connect()
    },
    async end() {
      monitor.stop()
      await Promise.all([primary.end(), replica.end()])
    },
  }
}

/** The connection broke, or the server is shutting down or starting (SQLSTATE classes 08 and 57P). */
const isConnectionFailure = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code !== 'string' || code.startsWith('08') || code.startsWith('57P') || /^E[A-Z]+$/.test(code)
}

/**
 * A replica connection whose query fails because the replica went away runs that query again
 * on the primary, so a reader never sees the outage. Only reads outside transactions are
 * routed to the replica (search, availability, reference lists), so running one again is safe.
 */
function failingOver(client: PostgresPoolClient, primary: PostgresPool, monitor: ReplicaMonitor): PostgresPoolClient {
  async function onPrimary<R>(text: string, values: readonly unknown[]): Promise<PostgresQueryResult<R>> {
    const other = await primary.connect()
    try {
      return await other.query<R>(text, values)
    } finally {
      other.release()
    }
  }
  function query<R>(text: string, values: readonly unknown[]): Promise<PostgresQueryResult<R>>
  function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>
  function query<R>(text: string | PostgresCursor<R>, values: readonly unknown[] = []): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof text !== 'string') return client.query(text)
    return client.query<R>(text, values).catch((error: unknown) => {
      if (!isConnectionFailure(error)) throw error
      monitor.markDown(error)
      return onPrimary<R>(text, values)
    })
  }
  return { query, release: () => client.release() }
}

/** Who a caller is for read-after-write: their user and their address, as `noteWrite` and `wroteRecently` take them. */
export type CallerKeys = readonly string[]

/** Callers who wrote within the window: in Redis when configured (shared by every instance), else in this process. */
export interface RecentWriters {
  note(keys: CallerKeys): Promise<void>
  any(keys: CallerKeys): Promise<boolean>
}

const MAX_REMEMBERED = 100_000

export function recentWriters(windowMs: number, redis: Redis | undefined, logger: Logger, now: () => number = Date.now): RecentWriters {
  if (redis) {
    const key = (k: string) => `tutoring:wrote:${k}`
    return {
      async note(keys) {
        try {
          await Promise.all(keys.map((k) => redis.set(key(k), '1', 'PX', windowMs)))
        } catch (error) {
          logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not note a write for read-after-write')
        }
      },
      async any(keys) {
        if (keys.length === 0) return false
        try {
          return (await redis.exists(...keys.map(key))) > 0
        } catch {
          // Redis down: nobody can be shown to be a stranger to their own writes, so the primary answers.
          return true
        }
      },
    }
  }
  const until = new Map<string, number>()
  return {
    async note(keys) {
      const expires = now() + windowMs
      for (const k of keys) {
        until.delete(k)
        until.set(k, expires)
      }
      // Oldest notes first in the map: drop those past their window, and the oldest beyond the cap.
      for (const [k, at] of until) {
        if (at > now() && until.size <= MAX_REMEMBERED) break
        until.delete(k)
      }
    },
    async any(keys) {
      return keys.some((k) => (until.get(k) ?? 0) > now())
    },
  }
}

/** What the HTTP layer asks of the routing, when a replica is configured. */
export interface ReadRouting {
  /** Runs `work` with its reads on the replica, unless these callers wrote recently (then on the primary). */
  onReplica<T>(keys: CallerKeys, work: () => Promise<T>): Promise<T>
  /** These callers just wrote: their reads go to the primary for `READ_AFTER_WRITE_MS`. */
  noteWrite(keys: CallerKeys): Promise<void>
  monitor: ReplicaMonitor
}

export function readRouting(monitor: ReplicaMonitor, writers: RecentWriters): ReadRouting {
  return {
    monitor,
    async onReplica(keys, work) {
      if (!monitor.usable() || (await writers.any(keys))) return work()
      return replicaReads.run(true, work)
    },
    noteWrite: (keys) => writers.note(keys),
  }
}
