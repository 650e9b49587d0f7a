import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SecretBox } from './secret-box'
import { singleCharacterEdit } from './tampering.fixtures'

const KEY = Buffer.alloc(32, 3)
const NOW = new Date('2026-11-22T10:00:00Z')
const box = new SecretBox(KEY, () => NOW)
const inAnHour = new Date(NOW.getTime() + 3_600_000)
const userId = fc.integer({ min: 1, max: 2 ** 40 })
const grant = (uid: number) => ({ userId: uid, bookingId: 5 })

describe('secret (web.api)', () => {
  it('opens to the user and the one booking it was sealed for, whatever the ids', () => {
    fc.assert(
      fc.property(userId, userId, (uid, bid) => {
        const opened = box.open(box.seal({ userId: uid, bookingId: bid }, inAnHour))
        return opened?.userId === uid && opened.bookingId === bid
      }),
    )
  })

  it('refuses a secret with any single character changed', () => {
    fc.assert(
      fc.property(
        userId.chain((uid) => {
          const secret = box.seal(grant(uid), inAnHour)
          return singleCharacterEdit(secret)
        }),
        (tampered) => box.open(tampered) === undefined,
      ),
      { numRuns: 500 },
    )
  })

  it('refuses a secret whose last character differs only in bits base64 leaves unused', () => {
    // 2 + 12 + 16 + ciphertext bytes: a uid of this length leaves slack bits at the end.
    const secret = [1, 12, 123, 1234].map((uid) => box.seal(grant(uid), inAnHour)).find((s) => s.length % 4 !== 0)!
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    const bytes = Buffer.from(secret, 'base64url')
    const sameBytes = [...alphabet].filter((c) => c !== secret.at(-1) && Buffer.from(secret.slice(0, -1) + c, 'base64url').equals(bytes))
    expect(sameBytes.length).toBeGreaterThan(0)
    for (const c of sameBytes) expect(box.open(secret.slice(0, -1) + c)).toBeUndefined()
  })

  it('refuses a secret cut short or lengthened', () => {
    const secret = box.seal(grant(42), inAnHour)
    fc.assert(
      fc.property(fc.integer({ min: 0, max: secret.length - 1 }), (length) => box.open(secret.slice(0, length)) === undefined),
    )
    expect(box.open(`${secret}A`)).toBeUndefined()
  })

  it('refuses an expired secret, and one sealed with another key', () => {
    const later = new SecretBox(KEY, () => new Date(inAnHour.getTime() + 1000))
    expect(later.open(box.seal(grant(7), inAnHour))).toBeUndefined()
    const otherKey = new SecretBox(Buffer.alloc(32, 4), () => NOW)
    expect(otherKey.open(box.seal(grant(7), inAnHour))).toBeUndefined()
  })
})
