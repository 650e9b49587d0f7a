import type { PGlite } from '@electric-sql/pglite'
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely'
import { SerialMutex } from './serial-mutex'
import { PG_TYPE, keepText, parseInt8 } from './type-parsers'

const PARSERS = {
  [PG_TYPE.INT8]: parseInt8,
  [PG_TYPE.DATE]: keepText,
  [PG_TYPE.NUMERIC]: keepText,
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pglite.query<R>(compiled.sql, [...compiled.parameters], {
      rowMode: 'object',
      parsers: PARSERS,
    })
    const affected = result.affectedRows
    return {
      rows: result.rows,
      ...(affected !== undefined ? { numAffectedRows: BigInt(affected) } : {}),
    }
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite dialect does not stream')
  }
}

/**
 * PGlite is one Postgres session. The driver hands that session to one holder at a time
 * and keeps it for a whole transaction, so a plain query from another request waits
 * instead of running inside (and being rolled back with) someone else's transaction.
 */
class PGliteDriver implements Driver {
  readonly #mutex = new SerialMutex()
  readonly #connection: PGliteConnection
  readonly #releases = new WeakMap<DatabaseConnection, () => void>()

  constructor(private readonly pglite: PGlite) {
    this.#connection = new PGliteConnection(pglite)
  }

  async init(): Promise<void> {
    await this.pglite.waitReady
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.#mutex.acquire()
    // A fresh wrapper per holder, so a stale holder can never release someone else's turn.
    const connection = Object.create(this.#connection) as PGliteConnection
    this.#releases.set(connection, release)
    return connection
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const level = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : ''
    await connection.executeQuery(CompiledQuery.raw(`begin${level}`))
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'))
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'))
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const release = this.#releases.get(connection)
    this.#releases.delete(connection)
    release?.()
  }

  async destroy(): Promise<void> {
    if (!this.pglite.closed) await this.pglite.close()
  }
}

export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}

  createAdapter() {
    return new PostgresAdapter()
  }

  createDriver(): Driver {
    return new PGliteDriver(this.pglite)
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler()
  }

  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db)
  }
}
