import { z } from '@hono/zod-openapi'
import { createMiddleware } from 'hono/factory'
import { authenticateBookingSecret, authenticateSignedLink, authenticateToken, type User } from '@tutoring/domain/accounts'
import { isInternal } from '@tutoring/domain/shared'
import type { Services } from '@tutoring/adapters'
import type { AppEnv } from './app-env'
import { problems } from './problem'

const BEARER = /^Bearer\s+([A-Za-z0-9_-]{16,256})\s*$/

/**
 * Runs on every request: a working bearer token sets `user`. A missing or broken token
 * is not an error here; the routes that need a user say so with `authApi` and friends.
 */
export function identify(services: Services) {
  return createMiddleware<AppEnv>(async function identify(c, next) {
    const match = BEARER.exec(c.req.header('authorization') ?? '')
    c.set('bearerToken', match?.[1])
    c.set('user', match ? await authenticateToken(services.accounts, match[1]!) : undefined)
    await next()
  })
}

/** `auth:api`: a valid session token, else 401. */
export const authApi = createMiddleware<AppEnv>(async function authApi(c, next) {
  if (!c.get('user')) throw problems.unauthenticated()
  await next()
})

/** `internal`: an authenticated user with role 200, else 403 (401 without a user). */
export const internalOnly = createMiddleware<AppEnv>(async function internalOnly(c, next) {
  const user = c.get('user')
  if (!user) throw problems.unauthenticated()
  if (!isInternal(user.roleId)) throw problems.forbidden('Only internal staff may do this.')
  await next()
})

const pathAndQuery = (url: string): string => {
  const u = new URL(url)
  return `${u.pathname}${u.search}`
}

/**
 * The query of a signed link naming its user (`uid`, `expires`, `signature`): `web.api`'s
 * second way in, so every `web.api` route documents and takes these three (CONTRACT §17 holds
 * each route to the names it documents).
 */
export const signedLinkQuery = z.object({
  uid: z.string().optional().openapi({ description: 'Of a signed link: the user it acts for (with expires and signature).' }),
  expires: z.string().optional().openapi({ description: 'Of a signed link: unix seconds.' }),
  signature: z.string().optional().openapi({ description: 'Of a signed link: hex HMAC-SHA256 of the URL without it.' }),
})

/** The query of a `signed` route: the link's expiry and signature (checked by `signedUrl`, 403 when wrong). */
export const signatureQuery = signedLinkQuery.pick({ expires: true, signature: true })

/**
 * `web.api` (SPEC "Auth levels"): the bearer user; else a valid signed URL naming a user in
 * `uid`; else, on the routes of one booking only (`bookingSecret`: its view and its cancel),
 * a `secret` issued for that booking (CONTRACT §14), which acts as its user there and nowhere
 * else. 401 when none works: an expired secret, or one for another booking, fails like none.
 */
export function webApi(services: Services, options: { bookingSecret?: boolean } = {}) {
  return createMiddleware<AppEnv>(async function webApi(c, next) {
    if (!c.get('user')) c.set('user', await authenticateSignedLink(services.accounts, pathAndQuery(c.req.url)))
    // Emailed links name the current family; the legacy paths sharing these handlers are auth:api.
    const secretHere = options.bookingSecret && !c.req.path.startsWith('/api/v1/')
    if (!c.get('user') && secretHere) c.set('user', await userFromBookingSecret(services, c.req.param('id'), c.req.query('secret')))
    if (!c.get('user')) throw problems.unauthenticated()
    await next()
  })
}

/** The secret of the booking the path names (its `id`, written as the API writes ids), if both are there. */
async function userFromBookingSecret(services: Services, bookingId: string | undefined, secret: string | undefined): Promise<User | undefined> {
  if (!secret || bookingId === undefined || !/^[1-9]\d*$/.test(bookingId)) return undefined
  return authenticateBookingSecret(services.accounts, { bookingId: Number(bookingId), secret })
}

/** `signed`: the request URL must carry a valid, unexpired signature (403 otherwise). */
export function signedUrl(services: Services) {
  return createMiddleware<AppEnv>(async function signedUrl(c, next) {
    if (!services.infra.urlSigner.verify(pathAndQuery(c.req.url))) {
      throw problems.invalidSignature(403, 'This link is invalid or has expired.')
    }
    await next()
  })
}

export const currentUser = (c: { get(key: 'user'): User | undefined }): User => {
  const user = c.get('user')
  if (!user) throw problems.unauthenticated()
  return user
}
