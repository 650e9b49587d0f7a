import { mkdtemp, rm } from 'node:fs/promises'
import type { IncomingMessage } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  buildServices,
  createInfrastructure,
  loadConfig,
  type DatabaseKind,
  type Infrastructure,
  type InfrastructureOverrides,
  type Services,
} from '@tutoring/adapters'
import { createTestDatabase } from '@tutoring/adapters/testing'
import { serve, type ServerType } from '@hono/node-server'
import type { User } from '@tutoring/domain/accounts'
import { createUser } from '@tutoring/domain/registration'
import type { RoleName } from '@tutoring/domain/shared'
import { createApp } from '../../src/app'

export type TestResponse<T = unknown> = { status: number; headers: Headers; body: T; text: string }

export type RequestOptions = {
  body?: unknown
  token?: string
  headers?: Record<string, string>
  /** Raw body text, sent as is (for malformed JSON and wrong content types). */
  raw?: string
  /** The TCP peer's address, as the socket would report it (for proxy and throttle tests). */
  from?: string
}

/** The part of node's IncomingMessage the platform reads: the socket's peer and the headers. */
export const fakeIncoming = (remoteAddress: string, headers: Record<string, string>) =>
  ({
    socket: { remoteAddress },
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
  }) as unknown as IncomingMessage

export type TestContext = Awaited<ReturnType<typeof createTestContext>>

export const APP_KEY = `base64:${Buffer.alloc(32, 7).toString('base64')}`

/**
 * A whole app on a fresh database of `kind`, called through `app.request()` (no socket).
 * Throttles are generous unless a test sets them; background jobs are off, so a test
 * delivers the outbox itself when it wants to.
 */
export async function createTestContext(
  kind: DatabaseKind,
  env: Record<string, string> = {},
  overrides: InfrastructureOverrides = {},
) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'tutoring-test-'))
  const database = await createTestDatabase(kind)
  const config = loadConfig({
    DATA_DIR: dataDir,
    APP_KEY,
    APP_URL: 'http://api.test',
    LOG_LEVEL: 'silent',
    BACKGROUND_JOBS: 'off',
    THROTTLE_PER_MINUTE: '100000',
    AUTH_THROTTLE_PER_MINUTE: '100000',
    ...env,
  })
  const infra: Infrastructure = await createInfrastructure(config, { database, ...overrides })
  const services: Services = buildServices(infra)
  const app = createApp(services)

  async function request<T = unknown>(method: string, url: string, options: RequestOptions = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...options.headers }
    let body: string | undefined
    if (options.raw !== undefined) body = options.raw
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body)
      headers['content-type'] ??= 'application/json'
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`
    const env = options.from ? { incoming: fakeIncoming(options.from, headers) } : undefined
    const res = await app.request(url, { method, headers, body }, env)
    const text = await res.text()
    let parsed: unknown = undefined
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      parsed = undefined
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text }
  }

  let counter = 0
  /** Registers through the API and answers the session, like a client would. */
  async function register(role: 'student' | 'parent' | 'tutor' = 'student', extra: Record<string, unknown> = {}) {
    counter++
    const email = `${role}${counter}.${Date.now()}@example.com`
    const res = await request<{ data: { token: string; user: { id: number; email: string } } }>('POST', '/api/auth/register', {
      body: { email, password: 'correct horse battery', firstname: 'Test', lastname: `${role} ${counter}`, role, country: 'GB', ...extra },
    })
    if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`)
    return { token: res.body.data.token, user: res.body.data.user, email, password: 'correct horse battery' }
  }

  /**
   * Every check of a tutor PASS, as the provider and staff would leave them. With the trial
   * a registration starts, the tutor may then be booked (CONTRACT §14 "Who can be booked").
   */
  async function passVerifications(userId: number) {
    for (const kind of ['identity', 'dbs', 'qualification'] as const) {
      await database.db
        .insertInto('verifications')
        .values({ user_id: userId, kind, status: 'PASS', reference: `pass_${kind}_${userId}`, redirect_url: null, document_file_id: null, certificate_number: null, issue_date: null, reviewed_by: null })
        .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet({ status: 'PASS' }))
        .execute()
    }
  }

  /** A tutor registered through the API whose checks have all passed: one who may be booked. */
  async function bookableTutor(extra: Record<string, unknown> = {}) {
    const tutor = await register('tutor', extra)
    await passVerifications(tutor.user.id)
    return tutor
  }

  /**
   * The tutor's Mathematics teach at GCSE, through the API, and a schedule open online all day
   * every day without buffers: any online hour can be booked.
   */
  async function openOnlineTeach(tutor: { token: string }, hourlyRate: string) {
    const subjectId = (await database.db.selectFrom('subjects').select('id').where('title', '=', 'Mathematics').executeTakeFirstOrThrow()).id
    const levelId = (await database.db.selectFrom('subject_levels').select('id').where('title', '=', 'GCSE').executeTakeFirstOrThrow()).id
    const teach = await request<{ data: { id: number } }>('POST', '/api/v1/teaches', { token: tutor.token, body: { subject_id: subjectId, subject_level_ids: [levelId], hourly_rate: hourlyRate } })
    for (const day of ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY']) {
      await request('POST', '/api/v1/day-availabilities', { token: tutor.token, body: { day, slots: [{ from: '00:00', to: '24:00' }], lesson_types: ['online'], buffer_minutes: 0 } })
    }
    return { teachId: teach.body.data.id, subjectId, levelId }
  }

  /** An internal user as the CLI makes one, logged in through the API. */
  async function internalUser() {
    return userWithRole('internal')
  }

  async function userWithRole(role: RoleName) {
    counter++
    const email = `${role}${counter}.${Date.now()}@staff.example.com`
    const created = await createUser(services.accounts, { email, password: 'staff password 1', role, firstname: 'Staff', lastname: 'Member' })
    if (created.isErr()) throw new Error(JSON.stringify(created.error))
    const login = await request<{ data: { token: string } }>('POST', '/api/auth/login', { body: { email, password: 'staff password 1' } })
    return { token: login.body.data.token, user: created.value as User, email }
  }

  /** Everything queued for delivery, newest last. */
  async function outbox(filter: { kind?: 'email' | 'push' | 'processor_sync'; topic?: string } = {}) {
    return infra.outbox.list(filter)
  }

  const servers: ServerType[] = []
  /** The same app behind a real listening socket, for clients that need one (keep-alive, streaming). */
  async function listen(): Promise<string> {
    const server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
    })
    servers.push(server)
    const address = server.address()
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  }

  return {
    kind,
    app,
    listen,
    infra,
    services,
    db: database.db,
    request,
    register,
    bookableTutor,
    passVerifications,
    openOnlineTeach,
    internalUser,
    userWithRole,
    outbox,
    async close() {
      for (const server of servers) {
        if ('closeAllConnections' in server) server.closeAllConnections()
        await new Promise((resolve) => server.close(resolve))
      }
      await infra.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
