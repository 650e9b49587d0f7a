import { execFile } from 'node:child_process'
import { appendFile, chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'

const run = promisify(execFile)

/** A primary and its streaming replica, each a PostgreSQL of this machine's on a free port. */
export type ReplicaCluster = {
  primaryUrl: string
  replicaUrl: string
  /** Stops applying the primary's changes on the replica (it falls behind), and starts again. */
  pauseReplay(): Promise<void>
  resumeReplay(): Promise<void>
  /** The replica's server, stopped at once (as a crash would), and started again. */
  stopReplica(): Promise<void>
  startReplica(): Promise<void>
  /** Resolves once the replica has replayed everything the primary had written when asked. */
  caughtUp(): Promise<void>
  /** Transactions each server has finished so far, every database together (for a bench: where reads went). */
  transactions(): Promise<{ primary: number; replica: number }>
  close(): Promise<void>
}

/** Whether this machine has the PostgreSQL server programs a cluster needs: `initdb`, `pg_ctl`, `pg_basebackup`. */
export async function replicaClusterAvailable(): Promise<boolean> {
  try {
    await Promise.all(['initdb', 'pg_ctl', 'pg_basebackup'].map((p) => run(p, ['--version'])))
    return true
  } catch {
    return false
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

/**
 * PostgreSQL refuses to run as root; as root (CI), the servers run as the `postgres` user
 * that the machine's own cluster runs as.
 */
const asServerUser = (program: string, args: string[]) =>
  process.getuid?.() === 0 ? run('runuser', ['-u', 'postgres', '--', program, ...args]) : run(program, args)

/**
 * `initdb` a primary (replication allowed from loopback), `pg_basebackup -R` a replica from
 * it, both started with `pg_ctl` in a temporary directory that `close` removes.
 */
export async function startReplicaCluster(): Promise<ReplicaCluster> {
  const dir = await mkdtemp(path.join(tmpdir(), 'tutoring-replica-'))
  if (process.getuid?.() === 0) {
    const { stdout } = await run('id', ['-u', 'postgres'])
    const { stdout: group } = await run('id', ['-g', 'postgres'])
    await chown(dir, Number(stdout.trim()), Number(group.trim()))
  }
  const primaryDir = path.join(dir, 'primary')
  const replicaDir = path.join(dir, 'replica')
  const [primaryPort, replicaPort] = [await freePort(), await freePort()]
  const settings = (port: number) =>
    `\nport = ${port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${dir}'\nfsync = off\nsynchronous_commit = off\nshared_buffers = 32MB\nmax_connections = 40\n`
  const pgCtl = (dataDir: string, ...args: string[]) => asServerUser('pg_ctl', ['-D', dataDir, '-l', `${dataDir}.log`, '-w', ...args])

  try {
    await asServerUser('initdb', ['-D', primaryDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C'])
    await appendFile(primaryDir + '/postgresql.conf', settings(primaryPort))
    await pgCtl(primaryDir, 'start')
    await asServerUser('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replicaDir, '-R', '-X', 'stream'])
    const conf = path.join(replicaDir, 'postgresql.conf')
    await writeFile(conf, (await readFile(conf, 'utf8')).replace(`port = ${primaryPort}`, `port = ${replicaPort}`))
    await pgCtl(replicaDir, 'start')
  } catch (error) {
    await pgCtl(replicaDir, 'stop', '-m', 'immediate').catch(() => undefined)
    await pgCtl(primaryDir, 'stop', '-m', 'immediate').catch(() => undefined)
    await rm(dir, { recursive: true, force: true })
    throw error
  }

  const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`
  const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/postgres`
  const on = async <R extends pg.QueryResultRow>(url: string, statement: string, values: unknown[] = []): Promise<R> => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      return (await client.query<R>(statement, values)).rows[0]!
    } finally {
      await client.end()
    }
  }
  const onReplica = async (statement: string) => {
    await on(replicaUrl, statement)
  }
  const transactionsOn = async (url: string) => Number((await on<{ n: string }>(url, 'select sum(xact_commit + xact_rollback) as n from pg_stat_database')).n)
  return {
    primaryUrl,
    replicaUrl,
    pauseReplay: () => onReplica('select pg_wal_replay_pause()'),
    resumeReplay: () => onReplica('select pg_wal_replay_resume()'),
    stopReplica: async () => {
      await pgCtl(replicaDir, 'stop', '-m', 'immediate')
    },
    startReplica: async () => {
      await pgCtl(replicaDir, 'start')
    },
    async caughtUp() {
      const { lsn } = await on<{ lsn: string }>(primaryUrl, 'select pg_current_wal_lsn()::text as lsn')
      while (!(await on<{ done: boolean }>(replicaUrl, 'select pg_last_wal_replay_lsn() >= $1::pg_lsn as done', [lsn])).done) {
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    },
    async transactions() {
      return { primary: await transactionsOn(primaryUrl), replica: await transactionsOn(replicaUrl) }
    },
    async close() {
      await pgCtl(replicaDir, 'stop', '-m', 'immediate').catch(() => undefined)
      await pgCtl(primaryDir, 'stop', '-m', 'immediate').catch(() => undefined)
      await rm(dir, { recursive: true, force: true })
    },
  }
}
