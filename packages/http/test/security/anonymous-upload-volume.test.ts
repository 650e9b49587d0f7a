import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { padded, testDatabaseKinds } from '@tutoring/adapters/testing'
import { freshAddress, twoInstancesSharingRedis } from '../support/client-addresses'
import { createTestContext, type TestContext } from '../support/harness'
import { recordFinding, Tally } from '../support/findings'
import { spooledUploads, storedObjects, upload } from '../support/uploads'

const MIB = 1024 * 1024
type Problem = { code: string }

const FINDING = {
  class: 'DoS: anonymous upload volume',
  tried: 'anonymous 9 MiB images from one client address until refused, from a second address, with an account, and through two instances sharing Redis; unclaimed uploads aged past 23 hours',
  held: 'at most 20 MiB an hour per address without an account (429 too_many_requests with Retry-After; nothing kept of the refused one), other addresses and accounts unaffected, the count shared through Redis; no unclaimed upload outlives a day',
}


describe.each(testDatabaseKinds())('anonymous upload volume, on %s', (kind) => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestContext(kind)
  })
  afterAll(() => t.close())

  const anonymous = (tally: Tally, from: string, token?: string) =>
    upload<{ data: { id: string } } & Problem>(t, '/api/files', padded('png', 9 * MIB), { name: 'me.png', from, token }).then((res) => tally.send(res, [429]))

  it('takes at most 20 MiB an hour from one address without an account: the third 9 MiB image is a 429', async ({ task }) => {
    const finding = recordFinding(task, FINDING)
    const tally = new Tally()
    const from = freshAddress()
    const rows = async () => Number((await t.db.selectFrom('files').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
    expect((await anonymous(tally, from)).status).toBe(201)
    expect((await anonymous(tally, from)).status).toBe(201)
    const [before, objects] = [await rows(), (await storedObjects(t)).length]
    const third = await anonymous(tally, from)
    expect(third.status).toBe(429)
    expect(third.body.code).toBe('too_many_requests')
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(Number(third.headers.get('retry-after'))).toBeLessThanOrEqual(3600)
    // Nothing of the refused upload is kept.
    expect(await rows()).toBe(before)
    expect((await storedObjects(t)).length).toBe(objects)
    expect(await spooledUploads(t)).toEqual([])
    // Another address, and an account from the same one, are not held to it.
    expect((await anonymous(tally, freshAddress())).status).toBe(201)
    const student = await t.register('student')
    expect((await anonymous(tally, from, student.token)).status).toBe(201)
    finding.figures = { requests: tally.requests, 'limits reached': tally.limitsReached }
  })

  it('refuses an upload that does not fit what is left, takes one that does, and refuses everything once nothing is', async ({ task }) => {
    recordFinding(task, FINDING)
    const tally = new Tally()
    const from = freshAddress()
    const sized = async (bytes: number) => tally.send(await upload(t, '/api/files', padded('png', bytes), { name: 'more.png', from }), [429]).status
    for (let i = 0; i < 2; i++) expect((await anonymous(tally, from)).status).toBe(201)
    expect(await sized(2 * MIB + 1)).toBe(429)
    expect(await sized(100)).toBe(201)
    expect(await sized(2 * MIB - 100)).toBe(201)
    expect(await sized(100)).toBe(429)
  })

  it('keeps no unclaimed upload past a day: the hourly purge takes any older than 23 hours', async ({ task }) => {
    recordFinding(task, FINDING)
    const tally = new Tally()
    const res = await anonymous(tally, freshAddress())
    expect(res.status).toBe(201)
    await t.db.updateTable('files').set({ created_at: new Date(Date.now() - 23 * 3_600_000 - 60_000) }).where('id', '=', res.body.data.id).execute()
    expect(await t.infra.purgeUnclaimedUploads()).toBeGreaterThanOrEqual(1)
    expect(await t.db.selectFrom('files').select('id').where('id', '=', res.body.data.id).execute()).toEqual([])
  })
})

const redisUrl = process.env.REDIS_URL

describe.runIf(redisUrl).each(testDatabaseKinds())('anonymous upload volume counted in Redis, on %s', (kind) => {
  let pair: Awaited<ReturnType<typeof twoInstancesSharingRedis>>
  beforeAll(async () => {
    pair = await twoInstancesSharingRedis(kind, redisUrl!)
  })
  afterAll(() => pair.close())

  it('shares the per-address count between two instances', async ({ task }) => {
    recordFinding(task, FINDING)
    const from = freshAddress()
    pair.forget(`addr:${from}`)
    const statuses = []
    for (const app of [pair.a, pair.b, pair.a]) statuses.push((await upload(app, '/api/files', padded('png', 9 * MIB), { name: 'me.png', from })).status)
    expect(statuses).toEqual([201, 201, 429])
  })
})
