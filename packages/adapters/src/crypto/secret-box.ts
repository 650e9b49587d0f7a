import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

export type SecretClaims = { uid: number; exp: number }

const IV_BYTES = 12
const TAG_BYTES = 16

/**
 * The `secret` of web.api links (CONTRACT §3): AES-256-GCM over `{uid, exp}`, as
 * base64url(iv | tag | ciphertext). Tampered, truncated or expired values open to nothing.
 */
export class SecretBox {
  constructor(
    private readonly key: Buffer,
    private readonly now: () => Date = () => new Date(),
  ) {}

  seal(userId: number, expiresAt: Date): string {
    const iv = randomBytes(IV_BYTES)
    const cipher = createCipheriv('aes-256-gcm', this.key, iv)
    const claims: SecretClaims = { uid: userId, exp: Math.floor(expiresAt.getTime() / 1000) }
    const body = Buffer.concat([cipher.update(JSON.stringify(claims), 'utf8'), cipher.final()])
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')
  }

  open(secret: string): number | undefined {
    if (!/^[A-Za-z0-9_-]+$/.test(secret)) return undefined
    const raw = Buffer.from(secret, 'base64url')
    // base64url leaves unused bits in a last character; only the canonical spelling counts.
    if (raw.length <= IV_BYTES + TAG_BYTES || raw.toString('base64url') !== secret) return undefined
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES))
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
      const plain = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()])
      const claims = JSON.parse(plain.toString('utf8')) as Partial<SecretClaims>
      if (!Number.isSafeInteger(claims.uid) || !Number.isSafeInteger(claims.exp)) return undefined
      return claims.exp! * 1000 > this.now().getTime() ? claims.uid : undefined
    } catch {
      return undefined
    }
  }
}
