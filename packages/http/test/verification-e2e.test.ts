import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SAMPLES, testDatabaseKinds } from '@tutoring/adapters/testing'
import { createUser } from '@tutoring/domain/registration'
import { allVerificationsPassed, VERIFICATION_KINDS, type VerificationStatuses } from '@tutoring/domain/verification'
import { startServer } from '../src/server'
import { createTestContext, type TestContext } from './support/harness'
import { httpCall, type HttpCallOptions } from './support/http-call'

const WEBHOOK_TOKEN = 'e2e_webhook_token_5f0c2a9e7b1d4c3a'

/**
 * A new tutor from registration to three passed verifications through a real listening
 * server: only public routes, the provider's webhook, and a staff member made as the CLI
 * makes one.
 */
describe.each(testDatabaseKinds())('tutor verification end to end on %s', (kind) => {
  let t: TestContext
  let server: Awaited<ReturnType<typeof startServer>>

  beforeAll(async () => {
    t = await createTestContext(kind, { VERIFICATION_WEBHOOK_TOKEN: WEBHOOK_TOKEN })
    server = await startServer(t.infra, 0)
  })
  afterAll(async () => {
    await server?.stop()
    await t?.close()
  })

  // Status and body only: the assertions compare whole answers.
  const call = async <T>(method: string, path: string, options: HttpCallOptions = {}) => {
    const { status, body } = await httpCall<T>(server.url, method, path, options)
    return { status, body }
  }
  const document = (bytes: Uint8Array, name: string) => {
    const form = new FormData()
    form.append('file', new Blob([bytes]), name)
    return form
  }
  type One<T> = { data: T }
  type Verification = { kind: string; status: string; reference: string; redirect_url: string | null; document_file_id: string | null }

  async function statuses(userId: number): Promise<VerificationStatuses> {
    const rows = await t.db.selectFrom('verifications').select(['kind', 'status']).where('user_id', '=', userId).execute()
    const found = Object.fromEntries(rows.map((r) => [r.kind, r.status]))
    return Object.fromEntries(VERIFICATION_KINDS.map((k) => [k, found[k] ?? 'NONE'])) as VerificationStatuses
  }

  it('takes a registered tutor to identity, DBS and qualification all PASS', async () => {
    const registered = await call<One<{ token: string; user: { id: number } }>>('POST', '/api/auth/register', {
      json: {
        email: 'grace.e2e@example.com',
        password: 'a long enough password',
        firstname: 'Grace',
        lastname: 'Hopper',
        role: 'tutor',
        country: 'GB',
        dbs: { certificate_number: '009876543210', issue_date: '2025-06-01' },
      },
    })
    expect(registered.status).toBe(201)
    const { token, user } = registered.body.data
    expect(await statuses(user.id)).toEqual({ identity: 'NONE', dbs: 'PENDING', qualification: 'NONE' })
    const before = await call<One<{ reasons: string[] }>>('GET', '/api/v1/tutors/status', { token })
    expect(before.body.data.reasons).toEqual(expect.arrayContaining(['identity_not_passed', 'dbs_not_passed', 'qualification_not_passed']))

    // Identity: a check at the provider, settled by its webhook.
    const check = await call<One<Verification>>('POST', '/api/v1/verification/identity', { token })
    expect(check.status).toBe(201)
    expect(check.body.data).toMatchObject({ status: 'PENDING', redirect_url: null })
    const hook = await call<{ data: { outcome: string } }>('POST', '/api/v1/verification/status', {
      headers: { 'x-webhook-token': WEBHOOK_TOKEN },
      json: { id: 'evt_e2e_identity', type: 'check.completed', data: { reference: check.body.data.reference, status: 'PASS' } },
    })
    expect(hook).toEqual({ status: 200, body: { data: { received: true, outcome: 'handled', reason: null } } })

    // Staff may not pass documents nobody uploaded.
    const email = 'staff.e2e@example.com'
    const created = await createUser(t.services.accounts, { email, password: 'staff password 1', role: 'internal', firstname: 'Staff', lastname: 'Member' })
    expect(created.isOk()).toBe(true)
    const login = await call<One<{ token: string }>>('POST', '/api/auth/login', { json: { email, password: 'staff password 1' } })
    const staff = login.body.data.token
    const early = await call<{ code: string }>('PUT', `/api/tutors/${user.id}/verifications/dbs`, { token: staff, json: { status: 'PASS' } })
    expect(early).toMatchObject({ status: 422, body: { code: 'document_missing' } })

    // Documents: uploaded by the tutor, reviewed by staff.
    const dbs = await call<One<Verification>>('POST', '/api/v1/verification/dbs', { token, form: document(SAMPLES.pdf, 'dbs.pdf') })
    expect(dbs.status).toBe(201)
    expect(dbs.body.data).toMatchObject({ kind: 'dbs', status: 'PENDING', document_file_id: expect.any(String) })
    const qualification = await call<One<Verification>>('POST', '/api/v1/verification/qualification', {
      token,
      form: document(SAMPLES.png, 'degree.png'),
    })
    expect(qualification.body.data).toMatchObject({ kind: 'qualification', status: 'PENDING' })

    for (const docKind of ['dbs', 'qualification']) {
      const reviewed = await call<One<Verification>>('PUT', `/api/tutors/${user.id}/verifications/${docKind}`, { token: staff, json: { status: 'PASS' } })
      expect(reviewed.status).toBe(200)
      expect(reviewed.body.data.status).toBe('PASS')
    }

    const final = await statuses(user.id)
    expect(final).toEqual({ identity: 'PASS', dbs: 'PASS', qualification: 'PASS' })
    expect(allVerificationsPassed(final)).toBe(true)
    // What the tutor sees: no verification keeps them out of search any more.
    const status = await call<One<{ reasons: string[]; verifications: Record<string, { status: string; reference?: string | null }> }>>(
      'GET',
      '/api/v1/tutors/status',
      { token },
    )
    expect(status.status).toBe(200)
    expect(status.body.data.verifications).toEqual({
      identity: { status: 'PASS', reference: check.body.data.reference },
      dbs: { status: 'PASS' },
      qualification: { status: 'PASS' },
    })
    expect(status.body.data.reasons.filter((r) => /identity|dbs|qualification/.test(r))).toEqual([])
    const notices = await t.outbox({ kind: 'email', topic: 'tutor_id_verification_status_updated' })
    expect(notices.map((n) => (n.payload as { data: { kind: string; status: string } }).data)).toEqual([
      expect.objectContaining({ kind: 'identity', status: 'PASS', userId: user.id }),
    ])
  })
})
