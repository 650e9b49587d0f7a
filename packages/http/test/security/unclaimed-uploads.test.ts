import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SAMPLES, testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from '../support/harness'
import { recordFinding, Tally } from '../support/findings'
import { storedObjects, upload } from '../support/uploads'

type FileBody = { data: { id: string } }

/**
 * Issue 13: anyone may upload an image without an account (registration's profile picture),
 * so unclaimed uploads must not pile up: a periodic job removes those nobody claimed within
 * a day, row and object, and instances running it at once share the work.
 */
describe.each(testDatabaseKinds())('uploads nobody claims, on %s', (kind) => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestContext(kind)
  })
  afterAll(() => t.close())

  it('are purged after a day, row and object, by several purges at once, keeping claimed and recent ones', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'DoS: unclaimed anonymous uploads',
      tried: '12 anonymous uploads left unclaimed for a day, one claimed by a registration, one recent; three purges at once',
      held: 'the 12 removed (rows and objects), each once; the claimed and the recent kept',
    })
    const tally = new Tally()
    const anonymous = async () => {
      const res = tally.send(await upload<FileBody>(t, '/api/files', SAMPLES.png, { name: 'me.png', fields: { purpose: 'profile_picture' } }), [])
      expect(res.status).toBe(201)
      return res.body.data.id
    }
    const stale = []
    for (let i = 0; i < 12; i++) stale.push(await anonymous())
    const claimed = await anonymous()
    const recent = await anonymous()
    const registered = tally.send(
      await t.request('POST', '/api/auth/register', {
        body: { email: `claims.${Date.now()}@example.com`, password: 'correct horse', firstname: 'Ada', lastname: 'L', role: 'student', country: 'GB', profile_picture: claimed },
      }),
      [],
    )
    expect(registered.status).toBe(201)
    const dayAgo = new Date(Date.now() - 25 * 3_600_000)
    await t.db.updateTable('files').set({ created_at: dayAgo }).where('id', 'in', [...stale, claimed]).execute()
    const keysOf = async (ids: string[]) => (await t.db.selectFrom('files').select('storage_key').where('id', 'in', ids).execute()).map((r) => r.storage_key)
    const staleKeys = await keysOf(stale)

    const purged = await Promise.all([t.infra.purgeUnclaimedUploads(), t.infra.purgeUnclaimedUploads(), t.infra.purgeUnclaimedUploads()])
    expect(purged.reduce((a, b) => a + b, 0)).toBe(stale.length)
    expect(await keysOf(stale)).toEqual([])
    expect((await keysOf([claimed, recent])).length).toBe(2)
    const objects = await storedObjects(t)
    expect(staleKeys.filter((key) => objects.includes(key))).toEqual([])
    expect(await t.infra.purgeUnclaimedUploads()).toBe(0)
    finding.figures = { requests: tally.requests, 'uploads purged': stale.length, 'purges at once': purged.length }
  })
})
