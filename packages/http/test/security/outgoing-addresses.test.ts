import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchFeedText, isPublicAddress, publicAddressesOnly } from '@tutoring/adapters'
import { recordFinding } from '../support/findings'

/**
 * Issue 13, "Smaller holes": the calendar-feed address guard let IPv6 forms through that
 * carry an IPv4 address: IPv4-compatible (::/96, so ::127.0.0.1) and Teredo (2001::/32).
 */
describe('the calendar-feed address guard', () => {
  let server: Server
  let port = 0
  beforeAll(async () => {
    server = createServer((_req, res) => res.end('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n'))
    await new Promise<void>((resolve) => server.listen(0, '::', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  it('refuses IPv4-compatible and Teredo addresses, literal or in a feed URL', async ({ task }) => {
    const embedded = ['::7f00:1', '::127.0.0.1', '::a00:5', '::c0a8:101', '::a9fe:a9fe', '2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:0:7f00:1::']
    const finding = recordFinding(task, {
      class: 'SSRF: IPv6 forms embedding an IPv4 address',
      tried: `${embedded.length} IPv4-compatible (::/96) and Teredo (2001::/32) addresses, and feed URLs on them`,
      held: 'refused as not public; public IPv6 still allowed',
    })
    const leaked = embedded.filter((address) => isPublicAddress(address))
    expect(leaked).toEqual([])
    let refused = 0
    for (const host of ['[::7f00:1]', '[::127.0.0.1]']) {
      await expect(fetchFeedText(`http://${host}:${port}/feed.ics`, { timeoutMs: 1_000, maxBytes: 10_000, policy: publicAddressesOnly })).rejects.toThrow(/not a public address/)
      refused++
    }
    expect(isPublicAddress('2a00:1450:4009:81f::200e')).toBe(true)
    expect(isPublicAddress('2001:4860:4860::8888')).toBe(true)
    finding.figures = { addresses: embedded.length, 'fetches refused': refused }
  })
})
