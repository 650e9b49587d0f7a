import { spawnSync } from 'node:child_process'
import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DataDirInUse, lockDataDir } from './data-dir-lock'

describe('the embedded data directory lock', () => {
  let root: string
  let dataDir: string
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'tutoring-lock-'))
    dataDir = path.join(root, 'pglite')
  })
  afterEach(() => rm(root, { recursive: true, force: true }))

  const owner = (pid: number, token = 'someone-else') => JSON.stringify({ pid, token, host: 'elsewhere', since: '2026-01-01T00:00:00.000Z' })
  /** The pid of a process that has just ended. */
  const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!

  it('is taken once: a second claim is refused with one line naming the owner, and release frees it', async () => {
    const lock = await lockDataDir(dataDir)
    expect(JSON.parse(await readFile(`${dataDir}.lock`, 'utf8'))).toMatchObject({ pid: process.pid })
    const refused = await lockDataDir(dataDir).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(DataDirInUse)
    expect((refused as Error).message).toMatch(new RegExp(`^the embedded database in .* is in use by process ${process.pid} on `))
    expect((refused as Error).message).not.toContain('\n')
    await lock.release()
    await expect(stat(`${dataDir}.lock`)).rejects.toThrow()
    await (await lockDataDir(dataDir)).release()
  })

  it('refuses while the owner runs (another pid, alive)', async () => {
    await writeFile(`${dataDir}.lock`, owner(process.ppid))
    await expect(lockDataDir(dataDir)).rejects.toThrow(`is in use by process ${process.ppid} on elsewhere`)
  })

  it('takes over a stale lock: its pid no longer runs, or it is this pid from before a restart', async () => {
    for (const pid of [deadPid(), process.pid]) {
      await writeFile(`${dataDir}.lock`, owner(pid))
      const lock = await lockDataDir(dataDir)
      expect(JSON.parse(await readFile(`${dataDir}.lock`, 'utf8')).pid).toBe(process.pid)
      await lock.release()
    }
  })

  it('treats a half-written lock as held while fresh and as stale once old', async () => {
    await writeFile(`${dataDir}.lock`, '')
    await expect(lockDataDir(dataDir)).rejects.toThrow(/in use by another process/)
    const old = new Date(Date.now() - 60_000)
    await utimes(`${dataDir}.lock`, old, old)
    await (await lockDataDir(dataDir)).release()
  })
})
