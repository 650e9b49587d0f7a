import { createHash } from 'node:crypto'
import { CompiledQuery, sql } from 'kysely'
import type { Kysely, RawBuilder, PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely'
import type pg from 'pg'
import type { Database } from './database'

/**
 * Opens a statement worth preparing: on PostgreSQL it becomes a named statement, parsed and
 * planned once per pooled connection and then only executed (the server may keep a generic
 * plan when it costs no more than planning anew; `plan_cache_mode` decides). For the hot reads
 * whose planning costs a large share of their time. PGlite reads it as a comment.
 */
export const PREPARED_MARK = '/* prepared */'

/** `compiled`, marked to be prepared (see `PREPARED_MARK`): run it with `db.executeQuery`. */
export const prepare = <R>(compiled: CompiledQuery<R>): CompiledQuery<R> => CompiledQuery.raw(`${PREPARED_MARK} ${compiled.sql}`, [...compiled.parameters]) as CompiledQuery<R>

/** A named stand-in for a value, in a statement compiled once (see `compiledOnce`). */
class StandIn {
  constructor(readonly name: string) {}
}

/** A statement compiled once: each call binds its values (`db` compiles it the first time). */
export type Bindable<V, R> = (db: Kysely<Database>, values: V) => CompiledQuery<R>

/**
 * A hot statement built and compiled once per process, on first use, instead of on every
 * call (building and compiling it showed in the profile as Kysely's `freeze` and `visitNode`):
 * `build` puts `value(name)` where each call's value goes, and each call binds its values to
 * those places, wherever compiling put them. Kept at module level, so a repository made for
 * each transaction does not compile it again: PostgreSQL and PGlite compile alike. Marked
 * prepared (see `prepare`).
 */
export function compiledOnce<V extends Record<string, unknown>, R>(
  build: (db: Kysely<Database>, value: <K extends keyof V & string>(name: K) => RawBuilder<V[K]>) => CompiledQuery<R>,
): Bindable<V, R> {
  let compiled: CompiledQuery<R> | undefined
  return (db, values) => {
    compiled ??= prepare(build(db, (name) => sql`${new StandIn(name)}`))
    return { ...compiled, parameters: compiled.parameters.map((p) => (p instanceof StandIn ? values[p.name] : p)) }
  }
}

/** The same text always gets the same name, so a connection never holds two texts under one name. */
const hashedName = (text: string): string => `p_${createHash('sha1').update(text).digest('hex')}`

/**
 * Names already worked out, so a statement compiled once is not hashed again on every call
 * (5 µs for availability's 3 KB). Emptied when full: texts built per call may not repeat.
 */
const NAMES_KEPT = 256
const names = new Map<string, string>()
const statementName = (text: string): string => {
  let name = names.get(text)
  if (name === undefined) {
    if (names.size >= NAMES_KEPT) names.clear()
    names.set(text, (name = hashedName(text)))
  }
  return name
}

/**
 * The pool Kysely queries through: statements that start with `PREPARED_MARK` go to the server
 * as named statements; the rest as before.
 */
export function preparingPool(pool: pg.Pool): PostgresPool {
  // One wrapper per pooled client, so Kysely's per-client connection cache keeps hitting.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>()
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    function query<R>(text: string, values: readonly unknown[]): Promise<PostgresQueryResult<R>>
    function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>
    function query<R>(text: string | PostgresCursor<R>, values: readonly unknown[] = []): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
      // Kysely streams through a pg-cursor, which pg's client submits as it is.
      if (typeof text !== 'string') return client.query(text as unknown as pg.Submittable) as unknown as PostgresCursor<R>
      const config = text.startsWith(PREPARED_MARK) ? { name: statementName(text), text, values: [...values] } : { text, values: [...values] }
      return client.query(config) as unknown as Promise<PostgresQueryResult<R>>
    }
    return { query, release: () => client.release() }
  }
  return {
    async connect() {
      const client = await pool.connect()
      let wrapper = wrappers.get(client)
      if (!wrapper) {
        wrappers.set(client, (wrapper = wrap(client)))
        // A server that goes away under a checked-out client fails its query (the caller hears
        // of it) and then emits 'error', which the pool listens for only while the client is
        // idle: unheard, it would end the process.
        client.on('error', () => undefined)
      }
      return wrapper
    },
    end: () => pool.end(),
  }
}
