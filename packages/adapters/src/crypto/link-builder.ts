import type { LinkBuilder, LinkReader } from '@tutoring/domain/accounts'
import type { SecretBox } from './secret-box'
import type { UrlSigner } from './url-signer'

export function linkBuilder(baseUrl: string, signer: UrlSigner, secrets: SecretBox): LinkBuilder {
  const withQuery = (path: string, params: Record<string, string> = {}) => {
    const query = new URLSearchParams(params).toString()
    return query ? `${path}?${query}` : path
  }
  return {
    url: (path, params) => `${baseUrl}${withQuery(path, params)}`,
    signedUrl: (path, params, expiresAt) => `${baseUrl}${signer.sign(withQuery(path, params), expiresAt)}`,
    bookingSecretUrl: (path, grant, expiresAt) => `${baseUrl}${withQuery(path, { secret: secrets.seal(grant, expiresAt) })}`,
  }
}

/** The other way: whether a link this service signed or sealed is still what it issued. */
export function linkReader(signer: UrlSigner, secrets: SecretBox): LinkReader {
  return {
    isSigned: (pathAndQuery) => signer.verify(pathAndQuery),
    openBookingSecret: (secret) => secrets.open(secret),
  }
}
