import { createHash, randomBytes, randomInt } from 'node:crypto'
import type { SecretTokens } from '@tutoring/domain'

const sha256Hex = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex')
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
