import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP } from 'node:net'
import { checkedAddresses, guardedLookup, type AddressPolicy } from '../../net'

export type FeedFetchOptions = { timeoutMs: number; maxBytes: number; policy: AddressPolicy; maxRedirects?: number }

export class FeedFetchFailed extends Error {}

function getOnce(url: URL, options: FeedFetchOptions, deadline: number): Promise<IncomingMessage> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'GET', lookup: guardedLookup(options.policy), headers: { accept: 'text/calendar, */*;q=0.5' }, timeout: Math.max(1, deadline - Date.now()) },
      resolve,
    )
    req.on('timeout', () => req.destroy(new FeedFetchFailed('calendar feed timed out')))
    req.on('error', reject)
    req.end()
  })
}

async function readCapped(response: IncomingMessage, maxBytes: number, deadline: number): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  const timer = setTimeout(() => response.destroy(new FeedFetchFailed('calendar feed timed out')), Math.max(1, deadline - Date.now()))
  try {
    for await (const chunk of response) {
      const buffer = chunk as Buffer
      size += buffer.length
      if (size > maxBytes) {
        response.destroy()
        throw new FeedFetchFailed(`calendar feed larger than ${maxBytes} bytes`)
      }
      chunks.push(buffer)
    }
  } finally {
    clearTimeout(timer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * GETs a calendar feed: http(s) only, every address of the host (and of each redirect's host)
 * checked by the policy before connecting, a whole-fetch deadline, and a size cap.
 */
export async function fetchFeedText(feedUrl: string, options: FeedFetchOptions): Promise<string> {
  const deadline = Date.now() + options.timeoutMs
  let url = new URL(feedUrl)
  for (let hop = 0; hop <= (options.maxRedirects ?? 3); hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FeedFetchFailed(`unsupported scheme ${url.protocol}`)
    // IP literals never reach the lookup, so they are checked here (URL has already normalised
    // forms like http://2130706433/ to 127.0.0.1).
    const bare = url.hostname.replace(/^\[|\]$/g, '')
    if (isIP(bare) !== 0) await checkedAddresses(bare, options.policy)
    const response = await getOnce(url, options, deadline)
    const status = response.statusCode ?? 0
    if (status >= 300 && status < 400 && response.headers.location) {
      response.resume()
      url = new URL(response.headers.location, url)
      continue
    }
    if (status !== 200) {
      response.resume()
      throw new FeedFetchFailed(`calendar feed answered ${status}`)
    }
    const length = Number(response.headers['content-length'] ?? 0)
    if (length > options.maxBytes) {
      response.destroy()
      throw new FeedFetchFailed(`calendar feed larger than ${options.maxBytes} bytes`)
    }
    return readCapped(response, options.maxBytes, deadline)
  }
  throw new FeedFetchFailed('calendar feed redirected too often')
}
