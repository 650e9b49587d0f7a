import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../db/connect'
import { accessTokenRepository } from '../accounts/access-token.repository'
import { userRepository } from '../accounts/user.repository'
import { createTestDatabase, testDatabaseKinds } from '../testing'
import { secretTokens } from './secret-tokens'
import { singleCharacterEdit } from './tampering.fixtures'

const NOW = new Date('2026-11-22T10:00:00Z')

describe.each(testDatabaseKinds())('session tokens on %s', (kind) => {
  let handle: DatabaseHandle
  let userId: number
  let token: string
  beforeAll(async () => {
    handle = await createTestDatabase(kind)
    const user = await userRepository(handle.db).insert({
      email: 'token.owner@example.com',
      passwordHash: 'not-a-real-hash',
      username: 'token.owner',
      firstname: 'Token',
      lastname: 'Owner',
      roleId: 1,
      country: 'GB',
      processorCustomerId: null,
    })
    userId = user!.id
    const generated = secretTokens.generate()
    token = generated.token
    await accessTokenRepository(handle.db).insert({ userId, tokenHash: generated.hash, expiresAt: new Date(NOW.getTime() + 3_600_000) })
  })
  afterAll(() => handle.close())

  const lookUp = (candidate: string, at = NOW) => accessTokenRepository(handle.db).findLiveUser(secretTokens.hash(candidate), at)

  it('are at least 32 random bytes in base64url, and only their hash is stored', async () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(token, 'base64url')).toHaveLength(32)
    const stored = await handle.db.selectFrom('access_tokens').select('token_hash').where('user_id', '=', userId).execute()
    expect(stored.map((r) => Buffer.from(r.token_hash).toString('hex'))).toEqual([secretTokens.hash(token)])
    expect((await lookUp(token))?.id).toBe(userId)
  })

  it('find no user once any single character is changed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constant(null).chain(() => singleCharacterEdit(token)), async (tampered) => (await lookUp(tampered)) === undefined),
      { numRuns: 200 },
    )
  })

  it('find no user once expired', async () => {
    expect(await lookUp(token, new Date(NOW.getTime() + 3_600_000))).toBeUndefined()
  })
})
