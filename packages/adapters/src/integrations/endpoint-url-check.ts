import { isIP } from 'node:net'
import type { EndpointUrlCheck } from '@tutoring/domain/integrations'
import { BlockedAddress, checkedAddresses, type AddressPolicy } from '../net'

const RESOLVE_WAIT_MS = 2_000

/**
 * CONTRACT §16: an endpoint is https and may not reach a private, loopback or link-local
 * address (the calendar feed's guard). A host that does not resolve now is let through: DNS
 * may lag behind a new integration, and every delivery checks the address again before it
 * connects. `allowInsecure` lifts both rules (development).
 */
export function endpointUrlCheck(options: { policy: AddressPolicy; allowInsecure: boolean }): EndpointUrlCheck {
  return {
    async problem(raw) {
      let url: URL
      try {
        url = new URL(raw)
      } catch {
        return 'must be an absolute URL'
      }
      if (url.username || url.password) return 'may not carry credentials'
      if (options.allowInsecure) return url.protocol === 'https:' || url.protocol === 'http:' ? null : 'must be an https URL'
      if (url.protocol !== 'https:') return 'must be an https URL'
      const host = url.hostname.replace(/^\[|\]$/g, '')
      const checked = checkedAddresses(host, options.policy).then(
        () => null,
        (error: unknown) => (error instanceof BlockedAddress ? 'may not reach a private, loopback or link-local address' : null),
      )
      if (isIP(host) !== 0) return checked
      return Promise.race([checked, new Promise<null>((resolve) => setTimeout(() => resolve(null), RESOLVE_WAIT_MS).unref())])
    },
  }
}
