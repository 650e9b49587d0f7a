import { createHash } from 'node:crypto'
import { CompiledQuery } from 'kysely'
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely'
import type pg from 'pg'

/**
 * Opens a statement worth preparing: on PostgreSQL it becomes a named statement, parsed and
 * planned once per pooled connection and then only executed (the server may keep a generic
 * plan when it costs no more than planning anew; `plan_cache_mode` decides). For the hot reads
 * whose planning costs a large share of their time. PGlite reads it as a comment.
 */
export const PREPARED_MARK = '/* prepared */'

/** `compiled`, marked to be prepared (see `PREPARED_MARK`): run it with `db.executeQuery`. */
export const prepare = <R>(compiled: CompiledQuery<R>): CompiledQuery<R> => CompiledQuery.raw(`${PREPARED_MARK} ${compiled.sql}`, [...compiled.parameters]) as CompiledQuery<R>

/** The same text always gets the same name, so a connection never holds two texts under one name. */
const statementName = (text: string): string => `p_${createHash('sha1').update(text).digest('hex')}`

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
