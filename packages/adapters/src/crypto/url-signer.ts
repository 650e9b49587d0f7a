import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * Signed URLs (CONTRACT §3): `expires` (unix seconds) and `signature`, the hex
 * HMAC-SHA256 of the URL without `signature`. Only path and query are signed, so a link
 * keeps working behind any host name or proxy.
 */
export class UrlSigner {
  constructor(
    private readonly key: Buffer,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** `pathAndQuery` like `/api/x?a=1`; returns it with `expires` and `signature` added. */
  sign(pathAndQuery: string, expiresAt: Date): string {
    const url = new URL(pathAndQuery, 'http://signed.invalid')
    url.searchParams.delete('signature')
    url.searchParams.set('expires', String(Math.floor(expiresAt.getTime() / 1000)))
    const unsigned = `${url.pathname}${url.search}`
    return `${unsigned}&signature=${this.mac(unsigned)}`
  }

  /** True only for an untampered, unexpired URL this key signed. */
  verify(pathAndQuery: string): boolean {
    const url = new URL(pathAndQuery, 'http://signed.invalid')
    const signature = url.searchParams.get('signature')
    const expires = Number(url.searchParams.get('expires'))
    if (!signature || !/^[0-9a-f]{64}$/.test(signature) || !Number.isInteger(expires)) return false
    if (expires * 1000 <= this.now().getTime()) return false
    const unsigned = `${url.pathname}${stripSignature(url.search)}`
    return timingSafeEqual(Buffer.from(this.mac(unsigned), 'hex'), Buffer.from(signature, 'hex'))
  }

  private mac(value: string): string {
    return createHmac('sha256', this.key).update(value).digest('hex')
  }
}

/** Removes `signature` while keeping every other parameter byte for byte, in order. */
function stripSignature(search: string): string {
  const kept = search
    .replace(/^\?/, '')
    .split('&')
    .filter((pair) => pair !== '' && !pair.startsWith('signature='))
  return kept.length > 0 ? `?${kept.join('&')}` : ''
}
