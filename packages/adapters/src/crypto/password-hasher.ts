import { hash, verify } from '@node-rs/argon2'
import type { PasswordHasher } from '@tutoring/domain/accounts'

/** OWASP's argon2id baseline: 19 MiB, two passes, one lane. */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

export function argon2Hasher(): PasswordHasher {
  // Verifying against this when the user is unknown keeps both answers equally slow.
  const dummy = hash('timing-equaliser-never-a-password', OPTIONS)
  return {
    hash: (password) => hash(password, OPTIONS),
    async verify(passwordHash, password) {
      try {
        const ok = await verify(passwordHash ?? (await dummy), password)
        return passwordHash !== undefined && ok
      } catch {
        return false
      }
    },
  }
}
