import { randomBytes } from 'node:crypto'
import { mkdir, open, readFile, rm, stat } from 'node:fs/promises'
import { hostname } from 'node:os'
import path from 'node:path'

/** Refused: another live process owns the embedded database. The message is one line for the operator. */
export class DataDirInUse extends Error {}

type Owner = { pid: number; token: string; host: string; since: string }

/** This process's mark: a pid alone can come back after a restart (pid 1 in a container). */
const TOKEN = randomBytes(8).toString('hex')
/** A lock file still empty this long after it was made belongs to a process that died making it. */
const HALF_WRITTEN_MS = 5_000

const readOwner = (text: string): Owner | undefined => {
  try {
    const owner = JSON.parse(text) as Partial<Owner>
    return typeof owner.pid === 'number' && typeof owner.token === 'string' ? (owner as Owner) : undefined
  } catch {
    return undefined
  }
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, it is just not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Whether a lock file's owner still holds it; a half-written file is held while it is fresh. */
async function isHeld(lockPath: string, owner: Owner | undefined): Promise<boolean> {
  if (!owner) {
    const age = await stat(lockPath).then((s) => Date.now() - s.mtimeMs, () => Infinity)
    return age < HALF_WRITTEN_MS
  }
  if (owner.pid === process.pid) return owner.token === TOKEN
  return isAlive(owner.pid)
}

/**
 * Makes this process the one owner of an embedded database directory (CONTRACT §14): two
 * processes on one PGlite directory can corrupt it, and neither sees the other's changes.
 * The lock is a file beside the directory naming its owner's pid; it is taken atomically
 * (create-exclusive), and one whose owner is gone (that pid no longer runs, or it is this
 * pid from before a restart) is stale and taken over. Otherwise DataDirInUse, before
 * anything in the directory is touched.
 */
export async function lockDataDir(dataDir: string): Promise<{ release(): Promise<void> }> {
  const lockPath = `${dataDir}.lock`
  const me: Owner = { pid: process.pid, token: TOKEN, host: hostname(), since: new Date().toISOString() }
  await mkdir(path.dirname(lockPath), { recursive: true })
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const file = await open(lockPath, 'wx')
      try {
        await file.writeFile(JSON.stringify(me))
      } finally {
        await file.close()
      }
      return { release: () => releaseLock(lockPath) }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const text = await readFile(lockPath, 'utf8').catch(() => undefined)
    if (text === undefined) continue
    const owner = readOwner(text)
    if (await isHeld(lockPath, owner)) {
      const who = owner ? `process ${owner.pid} on ${owner.host} (since ${owner.since})` : 'another process'
      throw new DataDirInUse(`the embedded database in ${dataDir} is in use by ${who}; stop it first, or set DATABASE_URL to use a PostgreSQL server`)
    }
    // Stale: removed only if it is still the lock just read, not one a rival took meanwhile.
    if ((await readFile(lockPath, 'utf8').catch(() => undefined)) === text) await rm(lockPath, { force: true })
  }
  throw new DataDirInUse(`the embedded database in ${dataDir} is being claimed by other processes; try again`)
}

async function releaseLock(lockPath: string): Promise<void> {
  const owner = readOwner(await readFile(lockPath, 'utf8').catch(() => ''))
  if (owner?.pid === process.pid && owner.token === TOKEN) await rm(lockPath, { force: true })
}
