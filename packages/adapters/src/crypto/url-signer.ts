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

  /**
   * True only for an untampered, unexpired URL this key signed. It reads the string as
   * given rather than through a URL parser, so no normalisation (a `\\` for a `/`, a
   * dropped tab) can make two different strings carry one signature.
   */
  verify(pathAndQuery: string): boolean {
    const q = pathAndQuery.indexOf('?')
    if (q < 0) return false
    const pairs = pathAndQuery.slice(q + 1).split('&')
    const signatures = pairs.filter((pair) => pair.startsWith('signature='))
    const kept = pairs.filter((pair) => !pair.startsWith('signature='))
    const expires = kept.filter((pair) => pair.startsWith('expires='))
    if (signatures.length !== 1 || expires.length !== 1) return false
    const signature = signatures[0]!.slice('signature='.length)
    const expiresAt = expires[0]!.slice('expires='.length)
    if (!/^[0-9a-f]{64}$/.test(signature) || !/^\d{1,12}$/.test(expiresAt)) return false
    if (Number(expiresAt) * 1000 <= this.now().getTime()) return false
    const unsigned = `${pathAndQuery.slice(0, q)}?${kept.join('&')}`
    return timingSafeEqual(Buffer.from(this.mac(unsigned), 'hex'), Buffer.from(signature, 'hex'))
  }

  private mac(value: string): string {
    return createHmac('sha256', this.key).update(value).digest('hex')
  }
}
