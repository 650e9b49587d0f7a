import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AddressDirectory } from '@tutoring/domain/availability'
import { createLogger } from '../logger'
import { postcodesIoDirectory } from './postcodes-io'

const silent = createLogger('silent')
const result = (postcode: string, latitude: number, longitude: number) => ({ postcode, latitude, longitude, admin_district: 'Westminster', post_town: null })

/** A stand-in speaking postcodes.io's JSON. */
function standIn(seen: string[]) {
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(req.url ?? '')
    const url = new URL(req.url ?? '/', 'http://x')
    res.setHeader('content-type', 'application/json')
    if (url.pathname === '/postcodes/SW1A%201AA') return res.end(JSON.stringify({ status: 200, result: result('SW1A 1AA', 51.501009, -0.141588) }))
    if (url.pathname === '/postcodes/BR0%200KE') {
      res.statusCode = 500
      return res.end('{}')
    }
    if (url.pathname === '/postcodes/SL0W%200AA') return setTimeout(() => res.end('{}'), 1_000)
    if (url.pathname === '/postcodes' && url.searchParams.get('q') === 'SW1A') {
      return res.end(JSON.stringify({ status: 200, result: [result('SW1A 1AA', 51.5, -0.14), result('SW1A 2AA', 51.503, -0.127)] }))
    }
    if (url.pathname === '/postcodes') return res.end(JSON.stringify({ status: 200, result: null }))
    res.statusCode = 404
    res.end(JSON.stringify({ status: 404, error: 'Postcode not found' }))
  })
}

const fallbackMatch = { line1: null, line2: null, city: null, postcode: 'ZE2 9AA', country: 'GB' as const, lat: 1, lng: 2 }
const fallback: AddressDirectory = {
  locate: async () => ({ lat: 1, lng: 2 }),
  addressesAt: async () => [fallbackMatch],
  postcodesStartingWith: async () => [],
}

describe('postcodes.io directory', () => {
  const seen: string[] = []
  const server = standIn(seen)
  let directory: AddressDirectory

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
    directory = postcodesIoDirectory({ baseUrl, fallback, logger: silent, timeoutMs: 200 })
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  it('geocodes a postcode and answers it as one address match', async () => {
    expect(await directory.locate('SW1A 1AA')).toEqual({ lat: 51.501009, lng: -0.141588 })
    expect(await directory.addressesAt('SW1A 1AA')).toEqual([
      { line1: null, line2: null, city: 'Westminster', postcode: 'SW1A 1AA', country: 'GB', lat: 51.501009, lng: -0.141588 },
    ])
    expect(seen).toContain('/postcodes/SW1A%201AA')
  })

  it('asks the postcodes table (and its districts) about a postcode the service does not know, such as a new one', async () => {
    expect(await directory.locate('ZE2 9AA')).toEqual({ lat: 1, lng: 2 })
    expect(await directory.addressesAt('ZE2 9AA')).toEqual([fallbackMatch])
  })

  it('searches by the start of a postcode with ?q=', async () => {
    expect((await directory.postcodesStartingWith('SW1A', 10)).map((m) => m.postcode)).toEqual(['SW1A 1AA', 'SW1A 2AA'])
    expect(await directory.postcodesStartingWith('ZZ9', 10)).toEqual([])
  })

  it('falls back to the postcodes table when the service fails or times out', async () => {
    expect(await directory.locate('BR0 0KE')).toEqual({ lat: 1, lng: 2 })
    expect(await directory.locate('SL0W 0AA')).toEqual({ lat: 1, lng: 2 })
  })
})
