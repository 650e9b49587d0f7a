import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

/** Who a `secret` lets act, and on which booking only (CONTRACT §14 "Emailed management links"). */
export type SecretGrant = { userId: number; bookingId: number }

type SecretClaims = { uid: number; bid: number; exp: number }

const IV_BYTES = 12
const TAG_BYTES = 16

/**
 * The `secret` of emailed booking links (CONTRACT §3, §14): AES-256-GCM over `{uid, bid, exp}`,
 * as base64url(iv | tag | ciphertext). Tampered, truncated, expired or unscoped values open to
 * nothing; what a value opens is one user's access to one booking, never the whole user.
 */
export class SecretBox {
  constructor(
    private readonly key: Buffer,
    private readonly now: () => Date = () => new Date(),
  ) {}

  seal(grant: SecretGrant, expiresAt: Date): string {
    const iv = randomBytes(IV_BYTES)
    const cipher = createCipheriv('aes-256-gcm', this.key, iv)
    const claims: SecretClaims = { uid: grant.userId, bid: grant.bookingId, exp: Math.floor(expiresAt.getTime() / 1000) }
    const body = Buffer.concat([cipher.update(JSON.stringify(claims), 'utf8'), cipher.final()])
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')
  }

  open(secret: string): SecretGrant | undefined {
    if (!/^[A-Za-z0-9_-]+$/.test(secret)) return undefined
    const raw = Buffer.from(secret, 'base64url')
    // base64url leaves unused bits in a last character; only the canonical spelling counts.
    if (raw.length <= IV_BYTES + TAG_BYTES || raw.toString('base64url') !== secret) return undefined
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES))
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
      const plain = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()])
      const claims = JSON.parse(plain.toString('utf8')) as Partial<SecretClaims>
      if (!Number.isSafeInteger(claims.uid) || !Number.isSafeInteger(claims.bid) || !Number.isSafeInteger(claims.exp)) return undefined
      return claims.exp! * 1000 > this.now().getTime() ? { userId: claims.uid!, bookingId: claims.bid! } : undefined
    } catch {
      return undefined
    }
  }
}
