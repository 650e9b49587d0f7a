import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Agent, fetch } from 'undici'
import { SAMPLES, testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from '../support/harness'
import { recordFinding } from '../support/findings'

const MIB = 1024 * 1024
const BOUNDARY = 'keepalive-boundary'
const multipart = (fileHead: Uint8Array, size: number) => {
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n`)
  const body = Buffer.alloc(head.length + size, 0x61)
  head.copy(body)
  Buffer.from(fileHead).copy(body, head.length)
  return body
}

/**
 * Issue 14: an answer given before the body was read must not leave a keep-alive client
 * with a socket the server is about to destroy. One client connection (undici, keep-alive,
 * a pool of one), an early refusal on it, then an ordinary GET on the same pool.
 */
describe.each(testDatabaseKinds())('early refusals on a keep-alive connection, on %s', (kind) => {
  let t: TestContext
  let base: string
  beforeAll(async () => {
    t = await createTestContext(kind)
    base = await t.listen()
  })
  afterAll(() => t.close())

  it('closes the connection after each early refusal, and the next request on the pool succeeds', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Early refusals on keep-alive connections',
      tried: '413, 400, 415, 401 and 404 answered before an 80 MiB body was read, each followed by a GET on the same one-connection pool',
      held: 'each refusal carried Connection: close; every following request answered',
    })
    const student = await t.register('student')
    // More than the Node adapter drains (64 MiB) before it destroys a socket whose body was refused.
    const size = 80 * MIB
    const json = Buffer.alloc(size, 0x20)
    const refusals = [
      { status: 413, method: 'POST', path: '/api/auth/login', type: 'application/json', body: json },
      { status: 400, method: 'POST', path: '/api/auth/login', type: `multipart/form-data; boundary=${BOUNDARY}`, body: multipart(SAMPLES.png, size) },
      { status: 415, method: 'POST', path: '/api/files', type: `multipart/form-data; boundary=${BOUNDARY}`, body: multipart(SAMPLES.text, size), token: student.token },
      { status: 401, method: 'POST', path: '/api/v1/verification/dbs', type: `multipart/form-data; boundary=${BOUNDARY}`, body: multipart(SAMPLES.pdf, size) },
      { status: 404, method: 'PUT', path: '/api/no-such-route', type: 'application/json', body: json },
    ]
    const agent = new Agent({ connections: 1, pipelining: 1, keepAliveTimeout: 30_000 })
    let requests = 0
    let lost = 0
    const failures: string[] = []
    try {
      for (const refusal of refusals) {
        // Warm the pool, so the refusal arrives on a connection already in use.
        requests++
        expect((await fetch(`${base}/healthz`, { dispatcher: agent })).status).toBe(200)
        requests++
        const refused = await fetch(`${base}${refusal.path}`, {
          method: refusal.method,
          dispatcher: agent,
          headers: { 'content-type': refusal.type, ...(refusal.token ? { authorization: `Bearer ${refusal.token}` } : {}) },
          body: refusal.body,
        }).catch((error: unknown) => error as Error)
        if (refused instanceof Error) {
          lost++
          failures.push(`${refusal.status} ${refusal.path}: the refusal itself failed: ${refused.message}`)
        } else {
          if (refused.status !== refusal.status) failures.push(`${refusal.path}: answered ${refused.status}, not ${refusal.status}`)
          if (refused.headers.get('connection') !== 'close') failures.push(`${refusal.status} ${refusal.path}: Connection: ${refused.headers.get('connection')}`)
          await refused.text()
        }
        requests++
        const next = await fetch(`${base}/api/countries`, { dispatcher: agent }).catch((error: unknown) => error as Error)
        if (next instanceof Error || next.status !== 200) {
          lost++
          failures.push(`after ${refusal.status} ${refusal.path}: ${next instanceof Error ? `${next.message} ${String((next as { cause?: unknown }).cause)}` : next.status}`)
        } else await next.text()
      }
    } finally {
      await agent.close()
    }
    finding.figures = { requests, 'faults injected': refusals.length, lost, duplicated: 0 }
    expect(failures).toEqual([])
  })
})
