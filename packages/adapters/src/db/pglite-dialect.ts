import type { PGlite } from '@electric-sql/pglite'
import {
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type KyselyConfig,
  type QueryResult,
  type TransactionBuilder,
  type TransactionSettings,
} from 'kysely'
import { idleStorage } from './idle-storage'
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
  readonly #chains = new WeakMap<DatabaseConnection, CallChain>()

  constructor(
    private readonly pglite: PGlite,
    private readonly guard: TransactionGuard,
  ) {
    this.#connection = new PGliteConnection(pglite)
  }

  async init(): Promise<void> {
    await this.pglite.waitReady
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const chain = this.guard.refuseSecondAcquisition()
    const release = await this.#mutex.acquire()
    // A fresh wrapper per holder, so a stale holder can never release someone else's turn.
    const connection = Object.create(this.#connection) as PGliteConnection
    this.#releases.set(connection, release)
    if (chain) {
      chain.holding = true
      this.#chains.set(connection, chain)
    }
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
    const chain = this.#chains.get(connection)
    if (chain) chain.holding = false
    release?.()
  }

  async destroy(): Promise<void> {
    if (!this.pglite.closed) await this.pglite.close()
  }
}

export class PGliteDialect implements Dialect {
  constructor(
    private readonly pglite: PGlite,
    private readonly guard: TransactionGuard,
  ) {}

  createAdapter() {
    return new PostgresAdapter()
  }

  createDriver(): Driver {
    return new PGliteDriver(this.pglite, this.guard)
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler()
  }

  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db)
  }
}

/** A transaction's call chain: whether it holds the one connection now (from its acquisition to its release). */
type CallChain = { holding: boolean }

/**
 * CONTRACT §17: the embedded database has one connection. A call chain that holds it in a
 * transaction and asks for it again (a query through the handle instead of the transaction:
 * a geocode, another repository set) would wait for itself for ever, and every other request
 * behind it. The guard knows each transaction's call chain (AsyncLocalStorage, idle when no
 * transaction runs) and refuses such an acquisition at once with an error naming the cause,
 * so the suite finds every such path, and a path it missed fails one request instead of
 * stalling the database. Other call chains still wait their turn, as before.
 */
export class TransactionGuard {
  readonly #chains = idleStorage<CallChain>()

  /** Runs a transaction's work as a call chain of its own (a transaction inside another's chain is refused too). */
  async within<R>(work: () => Promise<R>): Promise<R> {
    this.refuseSecondAcquisition()
    return this.#chains.run({ holding: false }, work)
  }

  /** The current transaction's call chain, if this acquisition is its own; throws if that chain holds the connection already. */
  refuseSecondAcquisition(): CallChain | undefined {
    const chain = this.#chains.getStore()
    if (chain?.holding) {
      throw new Error(
        'The embedded database has one connection, held by the open transaction of this call chain: a second acquisition would wait for it for ever (CONTRACT §17). Use the transaction, or do this before or after it.',
      )
    }
    return chain
  }
}

/** The embedded database's Kysely: each transaction runs as its guarded call chain. */
export class GuardedKysely<DB> extends Kysely<DB> {
  readonly #guard: TransactionGuard

  constructor(config: KyselyConfig, guard: TransactionGuard) {
    super(config)
    this.#guard = guard
  }

  override transaction(): TransactionBuilder<DB> {
    const builder = super.transaction()
    const execute = builder.execute.bind(builder)
    builder.execute = (callback) => this.#guard.within(() => execute(callback))
    return builder
  }
}
