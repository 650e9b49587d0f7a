import { randomBytes } from 'node:crypto'
import type { IdentityProvider } from '@tutoring/domain/verification'

/**
 * The embedded default: no network. Each check is PENDING under a fresh reference and has
 * no hosted page (`redirectUrl` null); its result arrives through the webhook like a real
 * provider's, so the whole flow can be exercised offline.
 */
export function offlineIdentityProvider(): IdentityProvider {
  return {
    mode: 'offline',
    async startCheck() {
      return { reference: `idv_offline_${randomBytes(12).toString('base64url')}`, redirectUrl: null }
    },
  }
}
