import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP } from 'node:net'
import { Webhook } from 'standardwebhooks'
import type { SendResult, WebhookSender } from '@tutoring/domain/integrations'
import { BlockedAddress, checkedAddresses, guardedLookup, type AddressPolicy } from '../net'

export type WebhookSenderOptions = {
  timeoutMs: number
  /** Who the endpoint's own URL may reach (public addresses only, unless insecure endpoints are allowed). */
  policy: AddressPolicy
  /** Who a redirect may send the message on to: always public addresses only in production, whatever `policy` allows. */
  redirectPolicy: AddressPolicy
  /** Whether a redirect may leave https (development only). */
  allowInsecure: boolean
  maxRedirects?: number
}

const REDIRECTS_KEEPING_BODY = new Set([307, 308])

class Refused extends Error {}

/** One POST, connected only to an address the policy checked; answers as soon as the status line is in, the body unread. */
async function postOnce(url: URL, headers: Record<string, string>, body: string, policy: AddressPolicy, deadline: number): Promise<IncomingMessage> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Refused(`unsupported scheme ${url.protocol}`)
  // IP literals never reach the lookup, so they are checked here.
  const bare = url.hostname.replace(/^\[|\]$/g, '')
  if (isIP(bare) !== 0) await checkedAddresses(bare, policy)
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', lookup: guardedLookup(policy), agent: false, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, resolve)
    // The whole exchange, connection and status line included, within the deadline.
    const timer = setTimeout(() => req.destroy(new Refused('no answer within the time limit')), Math.max(1, deadline - Date.now()))
    req.on('response', () => clearTimeout(timer))
    req.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    req.end(body)
  })
}

/**
 * Standard Webhooks delivery: the body signed with the `standardwebhooks` package (the
 * reference implementation, so our signature is the one receivers' libraries verify), POSTed
 * with `webhook-id`, `webhook-timestamp` and `webhook-signature`. A 2xx within the time limit
 * is delivered. The response body is never read (a receiver answering 10 MB costs nothing),
 * and a redirect is followed only when it keeps the method and body (307, 308), to an address
 * the redirect policy allows, a few times at most; any other 3xx is an answer like a 4xx.
 */
export function webhookSender(options: WebhookSenderOptions): WebhookSender {
  return {
    async send({ url, secret, eventId, timestamp, body }): Promise<SendResult> {
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'tutoring-webhooks/1',
        'webhook-id': eventId,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign(eventId, timestamp, body),
      }
      const deadline = Date.now() + options.timeoutMs
      let target = new URL(url)
      let policy = options.policy
      try {
        for (let hop = 0; hop <= (options.maxRedirects ?? 3); hop++) {
          const response = await postOnce(target, headers, body, policy, deadline)
          response.destroy()
          const status = response.statusCode ?? 0
          const location = response.headers.location
          if (!REDIRECTS_KEEPING_BODY.has(status) || !location) return { statusCode: status, error: null }
          target = new URL(location, target)
          if (target.protocol !== 'https:' && !options.allowInsecure) return { statusCode: status, error: `redirected to ${target.protocol} URL` }
          policy = options.redirectPolicy
        }
        return { statusCode: null, error: 'redirected too often' }
      } catch (error) {
        if (error instanceof BlockedAddress) return { statusCode: null, error: 'the address is not a public one' }
        return { statusCode: null, error: error instanceof Error ? error.message : String(error) }
      }
    },
  }
}
