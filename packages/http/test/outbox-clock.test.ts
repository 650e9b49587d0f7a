import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { fakeClock } from '@tutoring/testkit'
import { createTestContext, type TestContext } from './support/harness'

const HOUR = 3_600_000

/**
 * The service's clock decides when a queued message is due, not the database's: an instance
 * whose clock is behind the database's (here frozen an hour back) sends what a request just
 * queued on its next outbox run, not an hour later.
 */
describe.each(testDatabaseKinds())('queued emails on a service clock behind the database on %s', (kind) => {
  let t: TestContext
  const clock = fakeClock(new Date(Date.now() - HOUR))

  beforeAll(async () => {
    t = await createTestContext(kind, {}, { clock })
  })
  afterAll(async () => {
    await t?.close()
  })

  it('sends the password reset email a request just queued on the next outbox run', async () => {
    const { email } = await t.register('student')
    expect((await t.request('POST', '/api/auth/forgot', { body: { email } })).status).toBe(202)

    expect(await t.infra.deliverOutbox()).toMatchObject({ failed: 0 })
    // The mail folder: none at all while nothing was sent.
    const folder = path.join(t.infra.config.DATA_DIR, 'mail')
    const mails = await Promise.all((await readdir(folder).catch((): string[] => [])).map((file) => readFile(path.join(folder, file), 'utf8')))
    expect(mails.filter((m) => m.includes(`To: ${email}`) && /^Subject: Reset your password$/m.test(m))).toHaveLength(1)
    expect((await t.outbox({ topic: 'reset_password' })).map((m) => m.delivered_at)).toEqual([clock.now()])
  })
})
