import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SAMPLES, testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from '../support/harness'
import { memoryPeakMiB, recordFinding, Tally } from '../support/findings'
import { sendStreaming, type StreamedAnswer } from '../support/streaming-client'
import { spooledUploads } from '../support/uploads'

const MIB = 1024 * 1024
const BOUNDARY = 'x-attack-boundary'
const multipartHead = (fileHead: Uint8Array, partName = 'file') =>
  Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${partName}"; filename="a.bin"\r\nContent-Type: image/png\r\n\r\n`),
    Buffer.from(fileHead),
  ])
const multipartType = `multipart/form-data; boundary=${BOUNDARY}`
const codeOf = (answer: StreamedAnswer) => (JSON.parse(answer.body) as { code: string }).code

/**
 * Issue 13, "Denial of service": a body is refused by its route before it is read. Each
 * attack streams a body far larger than any limit through a real socket and checks the
 * answer came while at most the limit (plus the socket's buffers) had been sent, so the
 * server cannot have read more, and that memory stayed flat.
 */
describe.each(testDatabaseKinds())('request bodies are refused before they are read, on %s', (kind) => {
  let t: TestContext
  let base: string
  let student: Awaited<ReturnType<TestContext['register']>>
  beforeAll(async () => {
    t = await createTestContext(kind, { STRIPE_WEBHOOK_SECRET: 'whsec_test' })
    base = await t.listen()
    student = await t.register('student')
  })
  afterAll(() => t.close())

  it('refuses 100 MiB of multipart to login, a webhook and an idempotent POST with 400 before reading it', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'DoS: bodies a route does not take',
      tried: '100 MiB multipart (chunked and with Content-Length) to login, register, a webhook and an idempotent booking POST',
      held: '400 malformed_request before reading (at most the socket buffers sent)',
    })
    const tally = new Tally()
    const attacks: Array<{ path: string; headers: Record<string, string> }> = [
      { path: '/api/auth/login', headers: {} },
      { path: '/api/v1/payments/webhooks/accounts', headers: { 'stripe-signature': 't=1,v1=00' } },
      { path: '/api/bookings', headers: { authorization: `Bearer ${student.token}`, 'idempotency-key': 'attack-1' } },
      { path: '/api/auth/register', headers: {} },
    ]
    const { peakMiB } = await memoryPeakMiB(async () => {
      for (const attack of attacks) {
        for (const declareLength of [false, true]) {
          const answer = tally.send(
            await sendStreaming(`${base}${attack.path}`, {
              headers: { ...attack.headers, 'content-type': multipartType },
              totalBytes: 100 * MIB,
              head: multipartHead(SAMPLES.png),
              declareLength,
            }),
          )
          expect(answer.status, attack.path).toBe(400)
          expect(codeOf(answer)).toBe('malformed_request')
          expect(answer.sentBeforeAnswer, attack.path).toBeLessThan(8 * MIB)
        }
      }
    })
    expect(peakMiB).toBeLessThan(64)
    finding.figures = { requests: tally.requests, 'limits reached': tally.limitsReached, 'memory peak MiB': peakMiB, 'most sent before the answer (peak) MiB': tally.mostSentMiB }
  })

  it('refuses JSON over 1 MiB with 413, whether announced or chunked, reading at most the limit', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'DoS: JSON over 1 MiB',
      tried: '100 MiB JSON to login, with Content-Length and chunked',
      held: '413 payload_too_large, at most the limit read',
    })
    const tally = new Tally()
    const { peakMiB } = await memoryPeakMiB(async () => {
      for (const declareLength of [true, false]) {
        const answer = tally.send(
          await sendStreaming(`${base}/api/auth/login`, {
            headers: { 'content-type': 'application/json' },
            totalBytes: 100 * MIB,
            head: Buffer.from('{"email":"a@b.co","password":"'),
            declareLength,
          }),
        )
        expect(answer.status).toBe(413)
        expect(codeOf(answer)).toBe('payload_too_large')
        expect(answer.sentBeforeAnswer).toBeLessThan(8 * MIB)
      }
      // Within the limit, announced or chunked, the body is read as usual.
      const body = Buffer.from(JSON.stringify({ email: 'nobody@example.com', password: 'not the password' }))
      for (const declareLength of [true, false]) {
        const answer = tally.send(await sendStreaming(`${base}/api/auth/login`, { headers: { 'content-type': 'application/json' }, totalBytes: body.length, head: body, declareLength }), [])
        expect([answer.status, codeOf(answer)]).toEqual([401, 'invalid_credentials'])
      }
    })
    expect(peakMiB).toBeLessThan(64)
    finding.figures = { requests: tally.requests, 'limits reached': tally.limitsReached, 'memory peak MiB': peakMiB, 'most sent before the answer (peak) MiB': tally.mostSentMiB }
  })

  it('caps an anonymous upload at 10 MiB and refuses a type it does not take from the first bytes', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'DoS: uploads',
      tried: '150 MiB anonymous image upload (announced and chunked), 150 MiB of text as a file, a 9 MiB anonymous PDF',
      held: '413 at 10 MiB for anonymous callers; 415 and 401 from the first bytes; no spool left',
    })
    const tally = new Tally()
    const { peakMiB } = await memoryPeakMiB(async () => {
      // An anonymous client may upload images only, so 10 MiB at most, announced or not.
      for (const declareLength of [true, false]) {
        const answer = tally.send(
          await sendStreaming(`${base}/api/files`, { headers: { 'content-type': multipartType }, totalBytes: 150 * MIB, head: multipartHead(SAMPLES.png), declareLength }),
        )
        expect(answer.status).toBe(413)
        expect(answer.sentBeforeAnswer).toBeLessThan(20 * MIB)
      }
      // Not an accepted type at all: 415 once the first bytes are seen, not after 150 MiB.
      const text = tally.send(
        await sendStreaming(`${base}/api/files`, {
          headers: { 'content-type': multipartType, authorization: `Bearer ${student.token}` },
          totalBytes: 150 * MIB,
          head: multipartHead(SAMPLES.text),
        }),
      )
      expect(text.status).toBe(415)
      expect(text.sentBeforeAnswer).toBeLessThan(8 * MIB)
      // A PDF from someone without an account: 401 from the first bytes too.
      const anonymousPdf = tally.send(
        await sendStreaming(`${base}/api/files`, { headers: { 'content-type': multipartType }, totalBytes: 9 * MIB, head: multipartHead(SAMPLES.pdf) }),
      )
      expect(anonymousPdf.status).toBe(401)
      expect(anonymousPdf.sentBeforeAnswer).toBeLessThan(8 * MIB)
    })
    expect(await spooledUploads(t)).toEqual([])
    expect(peakMiB).toBeLessThan(64)
    finding.figures = { requests: tally.requests, 'limits reached': tally.limitsReached, 'memory peak MiB': peakMiB, 'most sent before the answer (peak) MiB': tally.mostSentMiB }
  })

  it('refuses JSON nested deeper than 64 levels with 400, and takes 64', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'DoS: deeply nested JSON',
      tried: 'objects and arrays nested 65 and 5,000 deep, 1,000,000 open brackets',
      held: '400 malformed_request beyond 64 levels (checked before parsing, without recursion); 64 levels read',
    })
    const tally = new Tally()
    const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`
    const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`
    for (const raw of [nested(5_000), arrays(5_000), nested(65), arrays(65), '['.repeat(1_000_000)]) {
      const res = tally.send(await t.request<{ code: string }>('POST', '/api/v1/search', { raw, headers: { 'content-type': 'application/json' } }))
      expect(res.status).toBe(400)
      expect(res.body.code).toBe('malformed_request')
    }
    const deepest = tally.send(
      await t.request<{ code: string; errors?: Record<string, string[]> }>('POST', '/api/auth/register', {
        raw: `{"email":"deep@example.com","address":${nested(63)}}`,
        headers: { 'content-type': 'application/json' },
      }),
    )
    expect(deepest.status).toBe(422)
    finding.figures = { requests: tally.requests, 'limits reached': tally.limitsReached }
  })
})
