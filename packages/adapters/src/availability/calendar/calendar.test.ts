import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../../logger'
import { checkedAddresses, isPublicAddress, publicAddressesOnly, systemResolver, type AddressPolicy } from '../../net'
import { fetchFeedText } from './feed-fetch'
import { busyIntervalsOf, icsBusyCalendar } from './ics-calendar'
import { memoryTextCache } from './text-cache'

const ICS = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//test//test//EN',
  'BEGIN:VEVENT',
  'UID:weekly@test',
  'DTSTAMP:20260101T000000Z',
  'DTSTART;TZID=Europe/London:20260323T100000',
  'DTEND;TZID=Europe/London:20260323T110000',
  'RRULE:FREQ=WEEKLY;COUNT=4',
  'EXDATE;TZID=Europe/London:20260406T100000',
  'SUMMARY:Weekly',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:free@test',
  'DTSTAMP:20260101T000000Z',
  'DTSTART:20260325T120000Z',
  'DTEND:20260325T130000Z',
  'TRANSP:TRANSPARENT',
  'SUMMARY:Free',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:cancelled@test',
  'DTSTAMP:20260101T000000Z',
  'DTSTART:20260326T120000Z',
  'DTEND:20260326T130000Z',
  'STATUS:CANCELLED',
  'SUMMARY:Off',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:ny@test',
  'DTSTAMP:20260101T000000Z',
  'DTSTART;TZID=America/New_York:20260327T090000',
  'DTEND;TZID=America/New_York:20260327T093000',
  'SUMMARY:Call',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n')

const iso = (busy: { start: Date; end: Date }[]) => busy.map((b) => [b.start.toISOString(), b.end.toISOString()])
const loopbackAllowed: AddressPolicy = { allow: () => true, resolve: systemResolver }

describe('ICS parsing', () => {
  it('expands recurring events across the clock change, skips EXDATEs, free and cancelled events, and honours TZID', () => {
    expect(iso(busyIntervalsOf(ICS, new Date('2026-03-20T00:00:00Z'), new Date('2026-04-30T00:00:00Z')))).toEqual([
      ['2026-03-23T10:00:00.000Z', '2026-03-23T11:00:00.000Z'],
      ['2026-03-27T13:00:00.000Z', '2026-03-27T13:30:00.000Z'],
      ['2026-03-30T09:00:00.000Z', '2026-03-30T10:00:00.000Z'],
      ['2026-04-13T09:00:00.000Z', '2026-04-13T10:00:00.000Z'],
    ])
  })
  it('keeps to the range asked for', () => {
    expect(iso(busyIntervalsOf(ICS, new Date('2026-03-29T00:00:00Z'), new Date('2026-04-01T00:00:00Z')))).toEqual([
      ['2026-03-30T09:00:00.000Z', '2026-03-30T10:00:00.000Z'],
    ])
  })
})

describe('address guard', () => {
  it('allows public addresses only', () => {
    for (const address of ['8.8.8.8', '151.101.1.69', '2a00:1450:4009:81f::200e']) expect(isPublicAddress(address), address).toBe(true)
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      'not-an-ip',
    ]) {
      expect(isPublicAddress(address), address).toBe(false)
    }
  })
  it('checks every address a host resolves to', async () => {
    const mixed: AddressPolicy = {
      allow: isPublicAddress,
      resolve: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.5', family: 4 },
      ],
    }
    await expect(checkedAddresses('example.test', mixed)).rejects.toThrow(/not a public address/)
    const clean: AddressPolicy = { allow: isPublicAddress, resolve: async () => [{ address: '93.184.216.34', family: 4 }] }
    expect(await checkedAddresses('example.test', clean)).toEqual([{ address: '93.184.216.34', family: 4 }])
  })
})

describe('feed fetching', () => {
  let server: Server
  let base = ''
  let hits = 0
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits++
      if (req.url === '/big.ics') {
        res.writeHead(200, { 'content-type': 'text/calendar' })
        return res.end('X'.repeat(10_000))
      }
      if (req.url === '/slow.ics') return setTimeout(() => res.end(ICS), 1_000)
      if (req.url === '/moved.ics') {
        res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere.ics' })
        return res.end()
      }
      res.writeHead(200, { 'content-type': 'text/calendar' })
      res.end(ICS)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  const options = (policy: AddressPolicy) => ({ timeoutMs: 300, maxBytes: 5_000, policy })

  it('refuses loopback with the production policy, by literal and by name', async () => {
    await expect(fetchFeedText(`${base}/a.ics`, options(publicAddressesOnly))).rejects.toThrow(/not a public address/)
    const port = new URL(base).port
    await expect(fetchFeedText(`http://localhost:${port}/a.ics`, options(publicAddressesOnly))).rejects.toThrow(/not a public address/)
    await expect(fetchFeedText(`http://[::1]:${port}/a.ics`, options(publicAddressesOnly))).rejects.toThrow(/not a public address/)
  })

  it('fetches when the policy allows, within the size cap and the timeout', async () => {
    expect(await fetchFeedText(`${base}/a.ics`, options(loopbackAllowed))).toBe(ICS)
    await expect(fetchFeedText(`${base}/big.ics`, options(loopbackAllowed))).rejects.toThrow(/larger than/)
    await expect(fetchFeedText(`${base}/slow.ics`, options(loopbackAllowed))).rejects.toThrow(/timed out/)
  })

  it('checks the address of every redirect too', async () => {
    let checks = 0
    const onlyFirst: AddressPolicy = { allow: () => ++checks === 1, resolve: systemResolver }
    await expect(fetchFeedText(`${base}/moved.ics`, options(onlyFirst))).rejects.toThrow(/not a public address/)
    expect(checks).toBe(2)
  })

  const calendarAt = (now: Date, maxIntervals?: number) =>
    icsBusyCalendar({
      fetchText: (url) => fetchFeedText(url, options(loopbackAllowed)),
      cache: memoryTextCache(),
      ttlSeconds: 60,
      logger: createLogger('silent'),
      now: () => now,
      maxIntervals,
    })

  it('fetches and parses a feed once, then answers any range of its window from the cache', async () => {
    const calendar = calendarAt(new Date('2026-03-21T00:00:00Z'))
    const before = hits
    const [first, second] = await Promise.all([
      calendar.busyBetween(`${base}/cached.ics`, new Date('2026-03-20T00:00:00Z'), new Date('2026-03-24T00:00:00Z')),
      calendar.busyBetween(`${base}/cached.ics`, new Date('2026-03-20T00:00:00Z'), new Date('2026-03-24T00:00:00Z')),
    ])
    expect(iso(first)).toEqual([['2026-03-23T10:00:00.000Z', '2026-03-23T11:00:00.000Z']])
    expect(second).toEqual(first)
    expect(iso(await calendar.busyBetween(`${base}/cached.ics`, new Date('2026-03-27T00:00:00Z'), new Date('2026-03-31T00:00:00Z')))).toEqual([
      ['2026-03-27T13:00:00.000Z', '2026-03-27T13:30:00.000Z'],
      ['2026-03-30T09:00:00.000Z', '2026-03-30T10:00:00.000Z'],
    ])
    expect(hits - before).toBe(1)
  })

  it('a feed it can not read blocks nothing, and is not asked again until the cache expires', async () => {
    const calendar = calendarAt(new Date('2026-03-21T00:00:00Z'))
    const before = hits
    for (let i = 0; i < 3; i++) expect(await calendar.busyBetween(`${base}/big.ics`, new Date('2026-03-20T00:00:00Z'), new Date('2026-03-24T00:00:00Z'))).toEqual([])
    expect(hits - before).toBe(1)
  })

  it('a feed with more busy times than the cap blocks its whole window', async () => {
    // Four occurrences in this window (one an EXDATE, so three busy times): a cap of four takes them all, three blocks it whole.
    expect(await calendarAt(new Date('2026-03-21T00:00:00Z'), 4).busyBetween(`${base}/cap3.ics`, new Date('2026-03-20T00:00:00Z'), new Date('2026-04-01T00:00:00Z'))).toHaveLength(3)
    const calendar = calendarAt(new Date('2026-03-21T00:00:00Z'), 3)
    const busy = await calendar.busyBetween(`${base}/cached-again.ics`, new Date('2026-03-20T00:00:00Z'), new Date('2026-04-01T00:00:00Z'))
    expect(iso(busy)).toEqual([['2026-03-18T00:00:00.000Z', '2026-04-08T00:00:00.000Z']])
  })
})
