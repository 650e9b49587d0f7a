import proxyAddr from 'proxy-addr'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env'

/**
 * The client's address. X-Forwarded-For is believed only from TRUSTED_PROXIES (CONTRACT
 * departures): trusting every hop would let any client pick its own throttle key.
 */
export function clientAddress(trustedProxies: string) {
  const trust = proxyAddr.compile(trustedProxies.split(',').map((s) => s.trim()).filter(Boolean))
  return createMiddleware<AppEnv>(async function clientAddress(c, next) {
    const incoming = c.env?.incoming
    const address = incoming?.socket?.remoteAddress ? proxyAddr(incoming, trust) : '127.0.0.1'
    c.set('clientAddress', address)
    await next()
  })
}
