import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SAMPLES, padded, testDatabaseKinds } from '@tutoring/adapters/testing'
import type { IdentityProvider } from '@tutoring/domain/verification'
import { tokensMatch } from '../src/platform/webhook-token'
import { createTestContext, type TestContext } from './support/harness'
import { follow, storedObjects, upload } from './support/uploads'

type Problem = { status: number; code: string; detail?: string; errors?: Record<string, string[]> }
type Verification = {
  kind: string
  status: string
  reference: string
  redirect_url: string | null
  document_file_id: string | null
  updated_at: string
}
type WebhookAnswer = { data: { received: true; outcome: 'handled' | 'ignored' | 'duplicate'; reason: string | null } }

const WEBHOOK_TOKEN = 'whk_3b1f9a0c7d2e4f6a8b0c1d2e3f4a5b6c'
const IMAGE_LIMIT = 64 * 1024
let eventCounter = 0
const nextEventId = () => `evt_${Date.now()}_${++eventCounter}`

describe('webhook token comparison', () => {
  it('matches only the identical token, whatever the lengths', () => {
    expect(tokensMatch(WEBHOOK_TOKEN, WEBHOOK_TOKEN)).toBe(true)
    expect(tokensMatch(`${WEBHOOK_TOKEN.slice(0, -1)}d`, WEBHOOK_TOKEN)).toBe(false)
    expect(tokensMatch(WEBHOOK_TOKEN.slice(0, 8), WEBHOOK_TOKEN)).toBe(false)
    expect(tokensMatch(`${WEBHOOK_TOKEN}x`, WEBHOOK_TOKEN)).toBe(false)
    expect(tokensMatch('', WEBHOOK_TOKEN)).toBe(false)
  })
})

describe.each(testDatabaseKinds())('tutor verification on %s', (kind) => {
  let t: TestContext
  /** A live provider stand-in, and no webhook token configured. */
  let alt: TestContext
  const liveProvider: IdentityProvider = {
    mode: 'live',
    startCheck: async (a) => ({ reference: `wfr_${a.userId}_${randomUUID()}`, redirectUrl: `https://provider.example/l/${a.userId}` }),
  }

  beforeAll(async () => {
    ;[t, alt] = await Promise.all([
      createTestContext(kind, { VERIFICATION_WEBHOOK_TOKEN: WEBHOOK_TOKEN, UPLOAD_MAX_IMAGE_BYTES: String(IMAGE_LIMIT) }),
      createTestContext(kind, {}, { identityProvider: liveProvider }),
    ])
  })
  afterAll(async () => {
    await Promise.all([t.close(), alt.close()])
  })

  const startIdentity = (token?: string) => t.request<{ data: Verification }>('POST', '/api/v1/verification/identity', { token })
  /** `null` sends no token header at all. */
  const webhook = (body: unknown, token: string | null = WEBHOOK_TOKEN) =>
    t.request<WebhookAnswer>('POST', '/api/v1/verification/status', { body, headers: token === null ? {} : { 'x-webhook-token': token } })
  const completed = (reference: string, status: string, id = nextEventId()) => ({ id, type: 'check.completed', data: { reference, status } })
  const review = (tutorId: number, kind: string, status: unknown, token?: string) =>
    t.request<{ data: Verification }>('PUT', `/api/tutors/${tutorId}/verifications/${kind}`, { token, body: { status } })

  const row = (userId: number, kind: string) =>
    t.db.selectFrom('verifications').selectAll().where('user_id', '=', userId).where('kind', '=', kind as 'identity').executeTakeFirst()
  const statusEmails = async () => t.outbox({ kind: 'email', topic: 'tutor_id_verification_status_updated' })
  const emailsAbout = async (reference: string) =>
    (await statusEmails()).filter((e) => (e.payload as { data: { reference: string } }).data.reference === reference)

  /** The tutor uploads a document through the API; answers the new file's id. */
  async function withDocument(tutor: { token: string }, kind: 'dbs' | 'qualification', bytes: Uint8Array = SAMPLES.pdf) {
    const res = await upload<{ data: Verification }>(t, `/api/v1/verification/${kind}`, bytes, { token: tutor.token, name: `${kind}.pdf` })
    if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${res.text}`)
    return res.body.data.document_file_id!
  }

  describe('identity check', () => {
    it('starts a PENDING check with a reference and no redirect offline', async () => {
      const tutor = await t.register('tutor')
      const res = await startIdentity(tutor.token)
      expect(res.status).toBe(201)
      expect(res.body.data).toMatchObject({ kind: 'identity', status: 'PENDING', redirect_url: null, document_file_id: null })
      expect(res.body.data.reference).toMatch(/^idv_offline_/)
      expect(await row(tutor.user.id, 'identity')).toMatchObject({ status: 'PENDING', reference: res.body.data.reference })
    })

    it('answers the pending check again instead of opening a second one', async () => {
      const tutor = await t.register('tutor')
      const first = await startIdentity(tutor.token)
      const again = await startIdentity(tutor.token)
      expect(again.status).toBe(200)
      expect(again.body.data.reference).toBe(first.body.data.reference)
      expect(await t.db.selectFrom('verifications').select('id').where('user_id', '=', tutor.user.id).where('kind', '=', 'identity').execute()).toHaveLength(1)
    })

    it('passes through the webhook, tells the internal team once, and refuses a new check after PASS', async () => {
      const tutor = await t.register('tutor')
      const { reference } = (await startIdentity(tutor.token)).body.data
      const res = await webhook(completed(reference, 'PASS'))
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual({ received: true, outcome: 'handled', reason: null })
      expect((await row(tutor.user.id, 'identity'))?.status).toBe('PASS')

      const emails = await emailsAbout(reference)
      expect(emails).toHaveLength(1)
      expect(emails[0]!.payload).toMatchObject({
        to: 'internal@tutoring.local',
        template: 'tutor_id_verification_status_updated',
        data: { userId: tutor.user.id, kind: 'identity', status: 'PASS', previousStatus: 'PENDING', email: tutor.email },
      })

      const again = await startIdentity(tutor.token)
      expect(again.status).toBe(409)
      expect((again.body as unknown as Problem).code).toBe('invalid_state_transition')
    })

    it('takes a resubmission after FAIL with a new reference, and ignores a late result for the old one', async () => {
      const tutor = await t.register('tutor')
      const old = (await startIdentity(tutor.token)).body.data.reference
      await webhook(completed(old, 'FAIL'))
      expect((await row(tutor.user.id, 'identity'))?.status).toBe('FAIL')

      const retry = await startIdentity(tutor.token)
      expect(retry.status).toBe(201)
      expect(retry.body.data.status).toBe('PENDING')
      expect(retry.body.data.reference).not.toBe(old)

      const late = await webhook(completed(old, 'PASS'))
      expect(late.body.data).toMatchObject({ outcome: 'ignored', reason: 'unknown_reference' })
      expect((await row(tutor.user.id, 'identity'))?.status).toBe('PENDING')

      await webhook(completed(retry.body.data.reference, 'PASS'))
      expect((await row(tutor.user.id, 'identity'))?.status).toBe('PASS')
    })

    it('refers a check to review and settles it with a later result; no new check meanwhile', async () => {
      const tutor = await t.register('tutor')
      const { reference } = (await startIdentity(tutor.token)).body.data
      await webhook(completed(reference, 'INTERNAL_REVIEW'))
      expect((await row(tutor.user.id, 'identity'))?.status).toBe('INTERNAL_REVIEW')
      expect((await startIdentity(tutor.token)).status).toBe(409)
      await webhook(completed(reference, 'FAIL'))
      expect((await row(tutor.user.id, 'identity'))?.status).toBe('FAIL')
      expect((await emailsAbout(reference)).map((e) => (e.payload as { data: { status: string } }).data.status)).toEqual(['INTERNAL_REVIEW', 'FAIL'])
    })

    it('answers the hosted page of a live provider', async () => {
      const tutor = await alt.register('tutor')
      const res = await alt.request<{ data: Verification }>('POST', '/api/v1/verification/identity', { token: tutor.token })
      expect(res.status).toBe(201)
      expect(res.body.data.redirect_url).toBe(`https://provider.example/l/${tutor.user.id}`)
      expect(res.body.data.reference).toMatch(new RegExp(`^wfr_${tutor.user.id}_`))
      const again = await alt.request<{ data: Verification }>('POST', '/api/v1/verification/identity', { token: tutor.token })
      expect(again.body.data).toEqual(res.body.data)
    })
  })

  describe('documents', () => {
    const send = (tutor: { token: string }, kind: string, bytes: Uint8Array, options: { name?: string; fields?: Record<string, string> } = {}) =>
      upload<{ data: Verification }>(t, `/api/v1/verification/${kind}`, bytes, { token: tutor.token, name: options.name ?? 'doc.bin', fields: options.fields })
    const fileRow = (id: string) => t.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst()

    it('stores a DBS certificate (PDF) as the pending document, with its details', async () => {
      const tutor = await t.register('tutor', { dbs: { certificate_number: '001234567890', issue_date: '2025-01-15' } })
      const registered = await row(tutor.user.id, 'dbs')
      const res = await send(tutor, 'dbs', SAMPLES.pdf, { name: 'certificate.pdf', fields: { certificate_number: '009999999999', issue_date: '2025-03-01' } })
      expect(res.status).toBe(201)
      expect(res.body.data).toMatchObject({ kind: 'dbs', status: 'PENDING', reference: registered!.reference, redirect_url: null, document_file_id: expect.any(String) })
      expect(await row(tutor.user.id, 'dbs')).toMatchObject({ certificate_number: '009999999999', issue_date: '2025-03-01', document_file_id: res.body.data.document_file_id })
      expect(await fileRow(res.body.data.document_file_id!)).toMatchObject({ owner_id: tutor.user.id, purpose: 'dbs', mime_type: 'application/pdf', name: 'certificate.pdf' })
    })

    it('stores a qualification image as a first submission, read by its content whatever its name', async () => {
      const tutor = await t.register('tutor')
      const res = await send(tutor, 'qualification', SAMPLES.png, { name: 'degree.pdf' })
      expect(res.status).toBe(201)
      expect(res.body.data).toMatchObject({ kind: 'qualification', status: 'PENDING', reference: expect.stringMatching(/^qualification_/) })
      expect((await fileRow(res.body.data.document_file_id!))?.mime_type).toBe('image/png')
    })

    it('serves the document to its owner and staff only', async () => {
      const tutor = await t.register('tutor')
      await withDocument(tutor, 'dbs')
      const other = await t.register('tutor')
      const staff = await t.internalUser()
      const own = await t.request('GET', `/api/resources/dbs-image/${tutor.user.id}`, { token: tutor.token })
      expect(own.status).toBe(302)
      expect((await follow(t, own.headers.get('location')!)).status).toBe(200)
      expect((await t.request('GET', `/api/resources/dbs-image/${tutor.user.id}`, { token: staff.token })).status).toBe(302)
      expect((await t.request('GET', `/api/resources/dbs-image/${tutor.user.id}`, { token: other.token })).status).toBe(404)
    })

    it('refuses another type with 415 and a file over the limit with 413, leaving nothing behind', async () => {
      const tutor = await t.register('tutor')
      const before = await storedObjects(t)
      for (const [bytes, status, code] of [
        [SAMPLES.text, 415, 'unsupported_media_type'],
        [SAMPLES.mp4, 415, 'unsupported_media_type'],
        [padded('pdf', IMAGE_LIMIT + 1), 413, 'payload_too_large'],
      ] as const) {
        const res = await send(tutor, 'qualification', bytes, { name: 'degree.pdf' })
        expect({ status: res.status, code: (res.body as unknown as Problem).code }).toEqual({ status, code })
      }
      expect(await row(tutor.user.id, 'qualification')).toBeUndefined()
      expect(await t.db.selectFrom('files').select('id').where('owner_id', '=', tutor.user.id).execute()).toEqual([])
      expect(await storedObjects(t)).toEqual(before)
    })

    it('answers 400 for a body that is not multipart and 422 for a missing file or a wrong part', async () => {
      const tutor = await t.register('tutor')
      const json = await t.request<Problem>('POST', '/api/v1/verification/dbs', { token: tutor.token, body: { file: 'x' } })
      expect(json.status).toBe(400)
      expect(json.body.code).toBe('malformed_request')
      const noFile = await upload<Problem>(t, '/api/v1/verification/dbs', SAMPLES.pdf, { token: tutor.token, partName: 'document' })
      expect(noFile.status).toBe(422)
      expect(noFile.body.errors).toHaveProperty('file')
      const extra = await send(tutor, 'qualification', SAMPLES.pdf, { fields: { certificate_number: '001234567890' } })
      expect(extra.status).toBe(422)
      expect((extra.body as unknown as Problem).errors).toHaveProperty('certificate_number')
      const badNumber = await send(tutor, 'dbs', SAMPLES.pdf, { fields: { certificate_number: '12' } })
      expect(badNumber.status).toBe(422)
      expect(await row(tutor.user.id, 'dbs')).toBeUndefined()
    })

    it('replaces a pending document and deletes the old one', async () => {
      const tutor = await t.register('tutor')
      const first = await withDocument(tutor, 'qualification')
      const firstKey = (await fileRow(first))!.storage_key
      expect(await storedObjects(t)).toContain(firstKey)
      const second = await withDocument(tutor, 'qualification', SAMPLES.jpeg)
      expect(second).not.toBe(first)
      expect((await row(tutor.user.id, 'qualification'))?.document_file_id).toBe(second)
      expect((await fileRow(first))?.deleted_at).not.toBeNull()
      expect(await storedObjects(t)).not.toContain(firstKey)
    })

    it('runs the whole review: FAIL, a new document, PASS, and then no more uploads', async () => {
      const tutor = await t.register('tutor')
      const staff = await t.internalUser()
      await withDocument(tutor, 'qualification')
      expect((await review(tutor.user.id, 'qualification', 'FAIL', staff.token)).body.data.status).toBe('FAIL')
      const again = await send(tutor, 'qualification', SAMPLES.webp)
      expect(again.status).toBe(201)
      expect(again.body.data.status).toBe('PENDING')
      expect((await review(tutor.user.id, 'qualification', 'PASS', staff.token)).body.data.status).toBe('PASS')

      const before = await storedObjects(t)
      const late = await send(tutor, 'qualification', SAMPLES.pdf)
      expect(late.status).toBe(409)
      expect((late.body as unknown as Problem).code).toBe('invalid_state_transition')
      expect(await storedObjects(t)).toEqual(before)
      expect((await row(tutor.user.id, 'qualification'))?.status).toBe('PASS')
    })
  })

  describe('webhook authentication', () => {
    let tutorId: number
    let reference: string
    beforeAll(async () => {
      const tutor = await t.register('tutor')
      tutorId = tutor.user.id
      reference = (await startIdentity(tutor.token)).body.data.reference
    })

    it.each([
      ['missing', null, 'The X-Webhook-Token header is missing.'],
      ['wrong', `${WEBHOOK_TOKEN.slice(0, -1)}x`, 'The X-Webhook-Token header is wrong.'],
      ['shorter', WEBHOOK_TOKEN.slice(0, 10), 'The X-Webhook-Token header is wrong.'],
      ['empty', '', 'The X-Webhook-Token header is missing.'],
    ])('refuses a token that is %s with 400 invalid_signature, saying which, and changes nothing', async (_name, token, detail) => {
      const event = completed(reference, 'PASS')
      const res = await webhook(event, token)
      expect(res.status).toBe(400)
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/)
      expect(res.body as unknown as Problem & { detail: string }).toMatchObject({ code: 'invalid_signature', detail })
      expect((await row(tutorId, 'identity'))?.status).toBe('PENDING')
      expect(await t.db.selectFrom('webhook_events').select('event_id').where('event_id', '=', event.id).execute()).toEqual([])
      expect(await emailsAbout(reference)).toEqual([])
    })

    it('checks the token before reading the body', async () => {
      const res = await t.request<Problem>('POST', '/api/v1/verification/status', { raw: '{not json', headers: { 'content-type': 'application/json' } })
      expect(res.status).toBe(400)
      expect(res.body.code).toBe('invalid_signature')
    })

    it('refuses every call when no token is configured', async () => {
      const tutor = await alt.register('tutor')
      const started = await alt.request<{ data: Verification }>('POST', '/api/v1/verification/identity', { token: tutor.token })
      for (const token of [null, '', WEBHOOK_TOKEN]) {
        const res = await alt.request<Problem>('POST', '/api/v1/verification/status', {
          body: completed(started.body.data.reference, 'PASS'),
          headers: token === null ? {} : { 'x-webhook-token': token },
        })
        expect(res.status).toBe(400)
        expect(res.body.code).toBe('invalid_signature')
      }
      const stored = await alt.db.selectFrom('verifications').select('status').where('user_id', '=', tutor.user.id).executeTakeFirst()
      expect(stored?.status).toBe('PENDING')
    })
  })

  describe('webhook events', () => {
    it('applies an event once: the same id again is a duplicate with one change and one email', async () => {
      const tutor = await t.register('tutor')
      const first = (await startIdentity(tutor.token)).body.data.reference
      const event = completed(first, 'FAIL')
      expect((await webhook(event)).body.data.outcome).toBe('handled')
      const repeat = await webhook(event)
      expect(repeat.status).toBe(200)
      expect(repeat.body.data.outcome).toBe('duplicate')
      expect(await emailsAbout(first)).toHaveLength(1)

      // Even aimed at a new pending check, a seen id changes nothing.
      const second = (await startIdentity(tutor.token)).body.data.reference
      const replay = await webhook({ ...event, data: { reference: second, status: 'PASS' } })
      expect(replay.body.data.outcome).toBe('duplicate')
      expect((await row(tutor.user.id, 'identity'))?.status).toBe('PENDING')
      expect(await emailsAbout(second)).toEqual([])
      const seen = await t.db.selectFrom('webhook_events').selectAll().where('event_id', '=', event.id).execute()
      expect(seen).toEqual([expect.objectContaining({ source: 'verification', type: 'check.completed' })])
    })

    it('acknowledges and ignores other event types and unknown references', async () => {
      const other = await webhook({ id: nextEventId(), type: 'check.started', data: { anything: [1, 2] } })
      expect(other.status).toBe(200)
      expect(other.body.data).toEqual({ received: true, outcome: 'ignored', reason: 'unknown_type' })
      const unknown = await webhook(completed('idv_never_issued', 'PASS'))
      expect(unknown.status).toBe(200)
      expect(unknown.body.data).toMatchObject({ outcome: 'ignored', reason: 'unknown_reference' })
    })

    it('ignores a result for a check that is no longer pending', async () => {
      const tutor = await t.register('tutor')
      const { reference } = (await startIdentity(tutor.token)).body.data
      await webhook(completed(reference, 'PASS'))
      const late = await webhook(completed(reference, 'FAIL'))
      expect(late.status).toBe(200)
      expect(late.body.data).toMatchObject({ outcome: 'ignored', reason: 'not_pending' })
      expect((await row(tutor.user.id, 'identity'))?.status).toBe('PASS')
      expect(await emailsAbout(reference)).toHaveLength(1)
    })

    it('settles a DBS check the provider reports by its reference', async () => {
      const tutor = await t.register('tutor', { dbs: { certificate_number: '001234567890', issue_date: '2025-01-15' } })
      const dbs = await row(tutor.user.id, 'dbs')
      expect(dbs?.status).toBe('PENDING')
      expect((await webhook(completed(dbs!.reference, 'PASS'))).body.data.outcome).toBe('handled')
      expect((await row(tutor.user.id, 'dbs'))?.status).toBe('PASS')
    })

    it('answers 400 for a body that is not JSON, and 422 for JSON of the wrong shape', async () => {
      const headers = { 'x-webhook-token': WEBHOOK_TOKEN, 'content-type': 'application/json' }
      const broken = await t.request<Problem>('POST', '/api/v1/verification/status', { raw: '{"id": ', headers })
      expect(broken.status).toBe(400)
      expect(broken.body.code).toBe('malformed_request')
      const text = await t.request<Problem>('POST', '/api/v1/verification/status', { raw: 'id=1', headers: { ...headers, 'content-type': 'text/plain' } })
      expect(text.status).toBe(400)

      const noId = await webhook({ type: 'check.completed', data: { reference: 'x', status: 'PASS' } })
      expect(noId.status).toBe(422)
      expect((noId.body as unknown as Problem).errors).toHaveProperty('id')
      const badStatus = await webhook({ id: nextEventId(), type: 'check.completed', data: { reference: 'x', status: 'MAYBE' } })
      expect(badStatus.status).toBe(422)
      expect(Object.keys((badStatus.body as unknown as Problem).errors!)).toEqual(['data.status'])
      const noData = await webhook({ id: nextEventId(), type: 'check.completed' })
      expect(noData.status).toBe(422)
      expect(Object.keys((noData.body as unknown as Problem).errors!).sort()).toEqual(['data.reference', 'data.status'])
      const notObject = await webhook([1, 2, 3])
      expect(notObject.status).toBe(422)
    })

    it('does not remember a refused event, so a corrected retry is handled', async () => {
      const tutor = await t.register('tutor')
      const { reference } = (await startIdentity(tutor.token)).body.data
      const id = nextEventId()
      expect((await webhook({ id, type: 'check.completed', data: { reference } })).status).toBe(422)
      expect((await webhook(completed(reference, 'PASS', id))).body.data.outcome).toBe('handled')
    })
  })

  describe('internal review', () => {
    let staff: { token: string; user: { id: number } }
    beforeAll(async () => {
      staff = await t.internalUser()
    })

    it('passes an uploaded document, records the reviewer, and may overturn it with a FAIL', async () => {
      const tutor = await t.register('tutor')
      const fileId = await withDocument(tutor, 'qualification')
      const passed = await review(tutor.user.id, 'qualification', 'PASS', staff.token)
      expect(passed.status).toBe(200)
      expect(passed.body.data).toMatchObject({ kind: 'qualification', status: 'PASS', document_file_id: fileId })
      expect(await row(tutor.user.id, 'qualification')).toMatchObject({ status: 'PASS', reviewed_by: staff.user.id })

      const overturned = await review(tutor.user.id, 'qualification', 'FAIL', staff.token)
      expect(overturned.status).toBe(200)
      expect(overturned.body.data.status).toBe('FAIL')
    })

    it('refuses a PASS for a document never uploaded with 422 document_missing', async () => {
      const tutor = await t.register('tutor', { dbs: { certificate_number: '001234567890', issue_date: '2025-01-15' } })
      for (const kind of ['dbs', 'qualification']) {
        const res = await review(tutor.user.id, kind, 'PASS', staff.token)
        expect(res.status).toBe(422)
        expect((res.body as unknown as Problem).code).toBe('document_missing')
      }
      expect((await row(tutor.user.id, 'dbs'))?.status).toBe('PENDING')
      expect(await row(tutor.user.id, 'qualification')).toBeUndefined()
    })

    it('fails a DBS check submitted without a document, but not one never submitted', async () => {
      const tutor = await t.register('tutor', { dbs: { certificate_number: '001234567890', issue_date: '2025-01-15' } })
      expect((await review(tutor.user.id, 'dbs', 'FAIL', staff.token)).body.data.status).toBe('FAIL')
      const nothing = await review(tutor.user.id, 'qualification', 'FAIL', staff.token)
      expect(nothing.status).toBe(409)
      expect((nothing.body as unknown as Problem).code).toBe('invalid_state_transition')
    })

    it('answers 409 for a second PASS', async () => {
      const tutor = await t.register('tutor')
      await withDocument(tutor, 'dbs')
      expect((await review(tutor.user.id, 'dbs', 'PASS', staff.token)).status).toBe(200)
      expect((await review(tutor.user.id, 'dbs', 'PASS', staff.token)).status).toBe(409)
    })

    it('refuses identity with 422, an unknown kind or tutor with 404, and a student as tutor with 404', async () => {
      const tutor = await t.register('tutor')
      const student = await t.register('student')
      const identity = await review(tutor.user.id, 'identity', 'PASS', staff.token)
      expect(identity.status).toBe(422)
      expect((identity.body as unknown as Problem).errors).toHaveProperty('kind')
      expect((await review(tutor.user.id, 'passport', 'PASS', staff.token)).status).toBe(404)
      expect((await review(999_999, 'dbs', 'PASS', staff.token)).status).toBe(404)
      expect((await review(student.user.id, 'dbs', 'PASS', staff.token)).status).toBe(404)
      expect((await t.request('PUT', `/api/tutors/abc/verifications/dbs`, { token: staff.token, body: { status: 'PASS' } })).status).toBe(404)
    })

    it('validates the body: only PASS or FAIL, nothing else', async () => {
      const tutor = await t.register('tutor')
      await withDocument(tutor, 'dbs')
      for (const body of [{ status: 'INTERNAL_REVIEW' }, { status: 'PASS', reviewed_by: 1 }, {}]) {
        const res = await t.request<Problem>('PUT', `/api/tutors/${tutor.user.id}/verifications/dbs`, { token: staff.token, body })
        expect(res.status).toBe(422)
        expect(res.body.code).toBe('validation_failed')
      }
      const broken = await t.request<Problem>('PUT', `/api/tutors/${tutor.user.id}/verifications/dbs`, {
        token: staff.token,
        raw: '{',
        headers: { 'content-type': 'application/json' },
      })
      expect(broken.status).toBe(400)
      expect((await row(tutor.user.id, 'dbs'))?.status).toBe('PENDING')
    })
  })

  describe('push provider callback', () => {
    const push = (body: unknown) => t.request<{ data: { received: boolean; recorded: boolean; duplicate: boolean } }>('POST', '/api/v1/remote-push-notification', { body })

    it('acknowledges any callback, with a string, an integer or no id, and keeps nothing for one that names no delivery of ours', async () => {
      const id = `receipt-${randomUUID()}`
      const numeric = Date.now()
      for (const body of [{ id, status: 'ok', details: { device: 'x' } }, { id: numeric, type: 'delivered' }, { type: 'delivered' }, { id, message_id: 'projects/x/messages/unknown' }]) {
        const res = await push(body)
        expect(res.status).toBe(200)
        expect(res.body.data).toEqual({ received: true, recorded: false, duplicate: false, matched: 0 })
      }
      // A receipt that changes no pending delivery leaves no row behind (CONTRACT §15; the recording is in note-push.test.ts).
      expect(await t.db.selectFrom('webhook_events').selectAll().where('source', '=', 'push').where('event_id', 'in', [id, String(numeric)]).execute()).toEqual([])
    })

    it('answers 400 for a body that is not JSON and 422 for JSON that is not an object', async () => {
      const broken = await t.request<Problem>('POST', '/api/v1/remote-push-notification', { raw: 'nope', headers: { 'content-type': 'application/json' } })
      expect(broken.status).toBe(400)
      expect(broken.body.code).toBe('malformed_request')
      expect((await t.request('POST', '/api/v1/remote-push-notification', { raw: '{}', headers: { 'content-type': 'text/plain' } })).status).toBe(400)
      expect((await push([{ id: 'a' }])).status).toBe(422)
      expect((await push({ id: '' })).status).toBe(422)
    })
  })

  describe('authorization', () => {
    type Actor = 'owner' | 'other tutor' | 'student' | 'parent' | 'internal' | 'anonymous'
    const actors: Actor[] = ['owner', 'other tutor', 'student', 'parent', 'internal', 'anonymous']
    let tokens: Record<Actor, string | undefined>
    let ownerId: number

    beforeAll(async () => {
      const owner = await t.register('tutor')
      ownerId = owner.user.id
      await withDocument(owner, 'dbs')
      tokens = {
        owner: owner.token,
        'other tutor': (await t.register('tutor')).token,
        student: (await t.register('student')).token,
        parent: (await t.register('parent')).token,
        internal: (await t.internalUser()).token,
        anonymous: undefined,
      }
    })

    const expected: Record<string, Record<Actor, number>> = {
      'POST /api/v1/verification/identity': { owner: 201, 'other tutor': 201, student: 403, parent: 403, internal: 403, anonymous: 401 },
      'POST /api/v1/verification/dbs': { owner: 201, 'other tutor': 201, student: 403, parent: 403, internal: 403, anonymous: 401 },
      'POST /api/v1/verification/qualification': { owner: 201, 'other tutor': 201, student: 403, parent: 403, internal: 403, anonymous: 401 },
      'PUT /api/tutors/{owner}/verifications/dbs': { owner: 403, 'other tutor': 403, student: 403, parent: 403, internal: 200, anonymous: 401 },
      'POST /api/v1/remote-push-notification': { owner: 200, 'other tutor': 200, student: 200, parent: 200, internal: 200, anonymous: 200 },
      // The webhook trusts its token only; a session token is neither needed nor enough.
      'POST /api/v1/verification/status (no webhook token)': { owner: 400, 'other tutor': 400, student: 400, parent: 400, internal: 400, anonymous: 400 },
    }

    const call = (route: string, token: string | undefined) => {
      switch (route) {
        case 'POST /api/v1/verification/identity':
          return t.request('POST', '/api/v1/verification/identity', { token })
        case 'POST /api/v1/verification/dbs':
          return upload(t, '/api/v1/verification/dbs', SAMPLES.pdf, { token, name: 'dbs.pdf' })
        case 'POST /api/v1/verification/qualification':
          return upload(t, '/api/v1/verification/qualification', SAMPLES.png, { token, name: 'degree.png' })
        case 'PUT /api/tutors/{owner}/verifications/dbs':
          return t.request('PUT', `/api/tutors/${ownerId}/verifications/dbs`, { token, body: { status: 'PASS' } })
        case 'POST /api/v1/remote-push-notification':
          return t.request('POST', '/api/v1/remote-push-notification', { token, body: { type: 'delivered' } })
        default:
          return t.request('POST', '/api/v1/verification/status', { token, body: { id: nextEventId(), type: 'check.started' } })
      }
    }

    for (const [route, byActor] of Object.entries(expected)) {
      it(`${route}: ${actors.map((a) => `${a} ${byActor[a]}`).join(', ')}`, async () => {
        // Internal last, so the review it performs cannot hide another actor's answer.
        for (const actor of actors) {
          const res = await call(route, tokens[actor])
          expect({ actor, status: res.status }).toEqual({ actor, status: byActor[actor] })
        }
      })
    }
  })

  it('documents every verification route in /openapi.json', async () => {
    const doc = await t.request<{ paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>> }>('GET', '/openapi.json')
    expect(doc.body.paths['/api/v1/verification/identity']?.post?.responses).toHaveProperty('201')
    expect(doc.body.paths['/api/v1/verification/status']?.post?.requestBody).toBeDefined()
    expect(doc.body.paths['/api/tutors/{id}/verifications/{kind}']?.put?.requestBody).toBeDefined()
    expect(doc.body.paths['/api/v1/remote-push-notification']?.post?.requestBody).toBeDefined()
    for (const kind of ['dbs', 'qualification']) {
      const route = doc.body.paths[`/api/v1/verification/${kind}`]?.post
      expect(JSON.stringify(route?.requestBody)).toContain('multipart/form-data')
      expect(route?.responses).toHaveProperty('415')
    }
  })
})
