import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createInfrastructure, loadConfig, type Infrastructure } from '@tutoring/adapters'
import { createTestDatabase, testDatabaseKinds } from '@tutoring/adapters/testing'
import { startServer } from '../src/server'

type RunningServer = Awaited<ReturnType<typeof startServer>>

/** Mail files that mention `needle`, checked every 200 ms until `timeoutMs` (generous: a busy machine delivers late, a quiet one returns at once). */
async function waitForMail(dir: string, needle: string, timeoutMs = 60_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const names = await readdir(dir).catch(() => [] as string[])
    const mails = await Promise.all(names.filter((n) => n.endsWith('.eml')).map((n) => readFile(path.join(dir, n), 'utf8')))
    const matching = mails.filter((m) => m.includes(needle))
    if (matching.length > 0 || Date.now() > deadline) return matching
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

describe.each(testDatabaseKinds())('a real server on %s', (kind) => {
  let dataDir: string
  let infra: Infrastructure
  let server: RunningServer
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tutoring-e2e-'))
    const config = loadConfig({ DATA_DIR: dataDir, APP_URL: 'http://tutoring.test', LOG_LEVEL: 'silent', BACKGROUND_JOBS: 'on' })
    infra = await createInfrastructure(config, { database: await createTestDatabase(kind) })
    server = await startServer(infra, 0)
  })
  afterAll(async () => {
    await server.stop()
    await infra.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  const call = (method: string, url: string, body?: unknown, token?: string) =>
    fetch(`${server.url}${url}`, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })

  it('registers, logs in, reads the account, and the background job writes the verification email', async () => {
    const email = `e2e.${Date.now()}@example.com`
    const registered = await call('POST', '/api/auth/register', { email, password: 'end to end pw', firstname: 'Eve', lastname: 'Tester', role: 'student', country: 'GB' })
    expect(registered.status).toBe(201)
    expect(registered.headers.get('content-type')).toBe('application/json; charset=utf-8')
    const { data: session } = (await registered.json()) as { data: { token: string; user: { id: number } } }

    const login = await call('POST', '/api/auth/login', { email, password: 'end to end pw' })
    expect(login.status).toBe(200)
    const { data: loggedIn } = (await login.json()) as { data: { token: string; user: { id: number } } }
    expect(loggedIn.user.id).toBe(session.user.id)
    expect(loggedIn.token).not.toBe(session.token)

    const me = await call('GET', `/api/v1/users/${loggedIn.user.id}`, undefined, loggedIn.token)
    expect(me.status).toBe(200)
    expect(((await me.json()) as { data: { email: string } }).data.email).toBe(email)
    expect(me.headers.get('x-powered-by')).toBeNull()
    expect(me.headers.get('server')).toBeNull()
    expect(me.headers.get('x-request-id')).toBeTruthy()
    expect(me.headers.get('etag')).toBeTruthy()

    const mails = await waitForMail(path.join(dataDir, 'mail'), `To: ${email}`)
    expect(mails).toHaveLength(1)
    expect(mails[0]).toMatch(/^Subject: Confirm your email address$/m)
    expect(mails[0]).toContain('http://tutoring.test/')
    const row = await infra.database.db.selectFrom('outbox').select(['delivered_at']).where('topic', '=', 'verify_email').executeTakeFirstOrThrow()
    expect(row.delivered_at).toBeInstanceOf(Date)
  })

  it('serves health, a 404 problem and a 405 over the wire', async () => {
    expect((await call('GET', '/healthz')).status).toBe(200)
    expect((await call('GET', '/readyz')).status).toBe(200)
    const missing = await call('GET', '/nowhere')
    expect(missing.status).toBe(404)
    expect(missing.headers.get('content-type')).toBe('application/problem+json; charset=utf-8')
    const wrongMethod = await call('DELETE', '/api/subjects')
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD')
  })
})
