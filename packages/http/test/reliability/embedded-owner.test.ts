import type { ChildProcess } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLI_ENTRY, launch, SERVER_ENTRY, startServerProcess } from '../support/child-server'
import { recordFinding } from '../support/findings'

/**
 * Issue 14, CONTRACT §14: one process owns the embedded database's directory. A CLI command
 * (or a second server) started while the server runs exits non-zero with a one-line reason
 * and changes nothing; after the owner is killed with -9, its stale lock is taken over.
 */
describe('the embedded database has one owner', () => {
  let dataDir: string
  let env: Record<string, string>
  const running: ChildProcess[] = []
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tutoring-owner-'))
    env = { DATA_DIR: dataDir, LOG_LEVEL: 'info', BACKGROUND_JOBS: 'off', DATABASE_URL: '', REDIS_URL: '' }
  })
  afterAll(async () => {
    for (const child of running) if (child.exitCode === null) child.kill('SIGKILL')
    await rm(dataDir, { recursive: true, force: true })
  })

  it('refuses a CLI command and a second server while the server runs, and takes over after a kill -9', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Embedded mode: one owner of DATA_DIR',
      tried: 'user:create and a second server against a running server\u2019s DATA_DIR; kill -9 of the server, then user:create and a restart',
      held: 'both refused with one line naming the owner, exit 1, nothing created; the stale lock taken over, the user created and seen by the restarted server',
    })
    const email = `owner.${Date.now()}@example.com`
    const createUser = ['user:create', '--email', email, '--password', 'owner password 1', '--role', 'student', '--firstname', 'Ada', '--lastname', 'Lovelace']
    const login = (url: string) =>
      fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'owner password 1' }) }).then((r) => r.status)

    const server = await startServerProcess(env)
    running.push(server.child)
    const filesBefore = (await readdir(dataDir)).sort()

    const cli = await launch(CLI_ENTRY, createUser, env).finished
    expect(cli.code).toBe(1)
    expect(cli.stderr.trim().split('\n')).toHaveLength(1)
    expect(cli.stderr).toMatch(new RegExp(`^tutoring user:create: the embedded database in .* is in use by process ${server.child.pid} `))
    const second = await launch(SERVER_ENTRY, [], { ...env, PORT: '0' }).finished
    expect(second.code).toBe(1)
    expect(second.stderr.trim().split('\n')).toEqual([expect.stringMatching(`is in use by process ${server.child.pid} `)])
    expect(await login(server.url)).toBe(401)
    expect((await readdir(dataDir)).sort()).toEqual(filesBefore)

    server.child.kill('SIGKILL')
    await server.finished
    expect(JSON.parse(await readFile(path.join(dataDir, 'pglite.lock'), 'utf8')).pid).toBe(server.child.pid)
    const after = await launch(CLI_ENTRY, createUser, env).finished
    expect([after.code, after.stderr]).toEqual([0, ''])
    const restarted = await startServerProcess(env)
    running.push(restarted.child)
    expect(await login(restarted.url)).toBe(200)
    restarted.child.kill('SIGTERM')
    expect((await restarted.finished).code).toBe(0)
    finding.figures = { processes: 5, 'faults injected': 1, refused: 2, lost: 0, duplicated: 0 }
  }, 300_000)
})
