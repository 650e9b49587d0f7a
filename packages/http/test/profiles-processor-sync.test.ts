import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import type { CustomerDetails, PaymentProcessor } from '@tutoring/domain/payments'
import { fakeClock } from '@tutoring/testkit'
import { createTestContext, type TestContext } from './support/harness'

type Caller = { token: string; user: { id: number } }
type Page<T> = { data: T[] }
type SyncRow = { id: number; payload: unknown; attempts: number; last_error: string | null; delivered_at: Date | null }

/** The configured (offline) processor, with updateCustomer recorded and switchable to "unreachable". */
function recordingProcessor() {
  const updates: Array<{ customerId: string; details: CustomerDetails }> = []
  const state = { down: false }
  const processor = (offline: PaymentProcessor): PaymentProcessor => ({
    ...offline,
    async updateCustomer(customerId, details) {
      if (state.down) throw new Error('processor unreachable')
      updates.push({ customerId, details })
    },
  })
  return { processor, updates, state }
}

describe.each(testDatabaseKinds())('processor sync of tutor details on %s', (kind) => {
  let t: TestContext
  const fake = recordingProcessor()
  const clock = fakeClock(new Date())
  /** Rows become due at the database's now(); the worker's clock must have caught up with it. */
  const deliver = async () => {
    if (Date.now() > clock.now().getTime()) clock.set(new Date())
    await t.infra.deliverOutbox(500)
  }
  let tutor: Caller
  let student: Caller

  beforeAll(async () => {
    t = await createTestContext(kind, {}, { clock, processor: fake.processor })
    tutor = await t.register('tutor', { date_of_birth: '1990-12-10', mobile: '+447700900123' })
    student = await t.register('student')
  })
  afterAll(() => t.close())

  beforeEach(async () => {
    fake.state.down = false
    // Deliver what registration queued, so each test sees only its own syncs.
    await deliver()
    fake.updates.length = 0
  })

  const customerSyncs = async (userId: number): Promise<SyncRow[]> =>
    (await t.outbox({ kind: 'processor_sync', topic: 'customer.update' })).filter(
      (row) => (row.payload as { data: { userId: number } }).data.userId === userId,
    )
  const pending = async (userId: number) => (await customerSyncs(userId)).filter((row) => row.delivered_at === null)
  const idOf = async (path: string, caller: Caller) => (await t.request<Page<{ id: number }>>('GET', path, { token: caller.token })).body.data[0]!.id

  it("queues PersonalDetailUpdated for a tutor's date of birth and sends the tutor's details to the processor", async () => {
    const before = (await customerSyncs(tutor.user.id)).length
    const id = await idOf('/api/v1/personal-details', tutor)
    const res = await t.request('PUT', `/api/v1/personal-details/${id}`, { token: tutor.token, body: { date_of_birth: '1991-01-02' } })
    expect(res.status).toBe(200)
    const queued = await customerSyncs(tutor.user.id)
    expect(queued).toHaveLength(before + 1)
    expect(queued.at(-1)!.payload).toMatchObject({ kind: 'processor_sync', topic: 'customer.update', data: { userId: tutor.user.id, event: 'PersonalDetailUpdated' } })

    await deliver()
    const { processor_customer_id } = await t.db.selectFrom('users').select('processor_customer_id').where('id', '=', tutor.user.id).executeTakeFirstOrThrow()
    expect(processor_customer_id).toBeTruthy()
    expect(fake.updates).toEqual([
      { customerId: processor_customer_id, details: { dateOfBirth: '1991-01-02', phone: '+447700900123', address: null } },
    ])
    expect(await pending(tutor.user.id)).toEqual([])
  })

  it('does not queue a sync when the tutor changes only gender or languages', async () => {
    const before = (await customerSyncs(tutor.user.id)).length
    const id = await idOf('/api/v1/personal-details', tutor)
    expect((await t.request('PUT', `/api/v1/personal-details/${id}`, { token: tutor.token, body: { gender: 'female' } })).status).toBe(200)
    expect(await customerSyncs(tutor.user.id)).toHaveLength(before)
  })

  it("queues AddressUpdated for a tutor's new, changed and removed address", async () => {
    const before = (await customerSyncs(tutor.user.id)).length
    const created = await t.request<{ data: { id: number } }>('POST', '/api/v1/addresses', {
      token: tutor.token,
      body: { line1: '1 Sync Street', city: 'York', postcode: 'YO1 7HH' },
    })
    await deliver()
    expect(fake.updates.at(-1)!.details.address).toEqual({ line1: '1 Sync Street', line2: null, city: 'York', postcode: 'YO1 7HH', country: 'GB' })

    await t.request('PUT', `/api/v1/addresses/${created.body.data.id}`, { token: tutor.token, body: { city: 'Leeds' } })
    await deliver()
    expect(fake.updates.at(-1)!.details.address).toMatchObject({ city: 'Leeds' })

    await t.request('DELETE', `/api/v1/addresses/${created.body.data.id}`, { token: tutor.token })
    await deliver()
    expect(fake.updates.at(-1)!.details.address).toBeNull()

    const events = (await customerSyncs(tutor.user.id)).slice(before).map((r) => (r.payload as { data: { event: string } }).data.event)
    expect(events).toEqual(['AddressUpdated', 'AddressUpdated', 'AddressUpdated'])
  })

  it("queues MobileNumberUpdated for a tutor's number and sends the newest one", async () => {
    const id = await idOf('/api/v1/mobile-numbers', tutor)
    const res = await t.request('PUT', `/api/v1/mobile-numbers/${id}`, { token: tutor.token, body: { number: '+447700900999' } })
    expect(res.status).toBe(200)
    const queued = await pending(tutor.user.id)
    expect(queued.map((r) => (r.payload as { data: { event: string } }).data.event)).toEqual(['MobileNumberUpdated'])
    await deliver()
    expect(fake.updates.at(-1)!.details.phone).toBe('+447700900999')
  })

  it('queues nothing for a student: only tutors are processor customers here', async () => {
    const id = await idOf('/api/v1/personal-details', student)
    await t.request('PUT', `/api/v1/personal-details/${id}`, { token: student.token, body: { date_of_birth: '2008-01-01' } })
    await t.request('POST', '/api/v1/addresses', { token: student.token, body: { line1: '1 A St', city: 'York', postcode: 'YO1 7HH' } })
    await t.request('POST', '/api/v1/mobile-numbers', { token: student.token, body: { number: '+447700900777' } })
    expect(await customerSyncs(student.user.id)).toEqual([])
  })

  it('answers the request while the processor is down, keeps the sync with its error, and delivers it later', async () => {
    fake.state.down = true
    const id = await idOf('/api/v1/personal-details', tutor)
    const res = await t.request<{ data: { date_of_birth: string } }>('PUT', `/api/v1/personal-details/${id}`, {
      token: tutor.token,
      body: { date_of_birth: '1989-05-05' },
    })
    expect(res.status).toBe(200)
    expect(res.body.data.date_of_birth).toBe('1989-05-05')

    await deliver()
    const [failed] = await pending(tutor.user.id)
    expect(failed).toMatchObject({ attempts: 1, last_error: 'processor unreachable', delivered_at: null })
    expect(fake.updates).toEqual([])

    fake.state.down = false
    await deliver()
    expect(fake.updates, 'not before its backoff').toEqual([])
    clock.advance(31_000)
    await t.infra.deliverOutbox(500)
    expect(fake.updates.map((u) => u.details.dateOfBirth)).toEqual(['1989-05-05'])
    const delivered = (await customerSyncs(tutor.user.id)).find((r) => r.id === failed!.id)!
    expect(delivered.delivered_at).toBeInstanceOf(Date)
    expect(delivered.attempts).toBe(2)
  })
})
