import { hash, randomBytes, randomInt } from 'node:crypto'
import type { SecretTokens } from '@tutoring/domain/accounts'

/** One-shot: every authenticated request hashes its token, and a Hash object per call costs more than the hash. */
const sha256Hex = (value: string): string => hash('sha256', value, 'hex')
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'

export const secretTokens: SecretTokens = {
  generate() {
    const token = randomBytes(32).toString('base64url')
    return { token, hash: sha256Hex(token) }
  },
  hash: sha256Hex,
  randomSuffix(length) {
    return Array.from({ length }, () => ALPHABET[randomInt(ALPHABET.length)]).join('')
  },
}
