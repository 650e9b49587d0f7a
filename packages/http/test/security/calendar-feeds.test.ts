import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { systemResolver } from '@tutoring/adapters'
import { addSearchableTutor, catalogOf, testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from '../support/harness'
import { recordFinding, Tally } from '../support/findings'

type Day = { date: string; times: Array<{ start: string }> }

/** 11.7 KB of the attack in issue 13: 100 events, each repeating every 5 minutes, from a day ago. */
function everyFiveMinutes(events: number): string {
  const start = new Date(Date.now() - 86_400_000).toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '')
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//attack//attack//EN']
  for (let i = 0; i < events; i++) {
    lines.push('BEGIN:VEVENT', `UID:e${i}@attack`, `DTSTAMP:${start}`, `DTSTART:${start}`, 'DURATION:PT1M', 'RRULE:FREQ=MINUTELY;INTERVAL=5', 'END:VEVENT')
  }
  lines.push('END:VCALENDAR', '')
  return lines.join('\r\n')
}

/**
 * Issue 13: a tutor's calendar feed stalled the server: 100 events repeating every 5
 * minutes took seconds of CPU, parsed again on every anonymous availability request, and a
 * dead feed was fetched again on every request.
 */
describe.each(testDatabaseKinds())('calendar feeds, on %s', (kind) => {
  let t: TestContext
  let feeds: Server
  let base = ''
  const hits = new Map<string, number>()
  const feed = everyFiveMinutes(100)

  beforeAll(async () => {
    feeds = createServer((req, res) => {
      hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1)
      if (req.url === '/dead.ics') {
        res.writeHead(500)
        return res.end()
      }
      res.writeHead(200, { 'content-type': 'text/calendar' })
      res.end(feed)
    })
    await new Promise<void>((resolve) => feeds.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(feeds.address() as AddressInfo).port}`
    // Only here may a feed live on 127.0.0.1: production allows public addresses only.
    t = await createTestContext(kind, {}, { calendarAddressPolicy: { allow: () => true, resolve: systemResolver } })
  })
  afterAll(async () => {
    await t.close()
    await new Promise((resolve) => feeds.close(resolve))
  })

  /** A bookable tutor whose calendar is the feed at `path`; answers the teach id. */
  async function tutorWithFeed(path: string): Promise<number> {
    const tutorId = await addSearchableTutor(t, await catalogOf(t))
    await t.db.updateTable('profiles').set({ calendar_feed_url: `${base}${path}` }).where('user_id', '=', tutorId).execute()
    return (await t.db.selectFrom('teaches').select('id').where('tutor_id', '=', tutorId).executeTakeFirstOrThrow()).id
  }

  it('parses a feed once per fetch into bounded busy times, and a feed too dense blocks its tutor rather than the server', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'DoS: calendar feeds',
      tried: `a ${(feed.length / 1024).toFixed(1)} KB feed of 100 events repeating every 5 minutes, 20 anonymous availability requests; a dead feed asked 20 times`,
      held: 'one fetch and one bounded parse per feed per cache lifetime; the dense feed blocks its tutor only; the dead feed fetched once',
    })
    const tally = new Tally()
    const teachId = await tutorWithFeed('/dense.ics')
    const cpuBefore = process.cpuUsage()
    const started = performance.now()
    for (let i = 0; i < 20; i++) {
      const res = tally.send(await t.request<{ data: { availabilities: Day[] } }>('GET', `/api/availabilites?teach_id=${teachId}`), [])
      expect(res.status).toBe(200)
      // Every minute of the window is in some event: nothing may be offered.
      expect(res.body.data.availabilities.flatMap((d) => d.times)).toEqual([])
    }
    const cpu = process.cpuUsage(cpuBefore)
    const cpuMs = Math.round((cpu.user + cpu.system) / 1000)
    const wallMs = Math.round(performance.now() - started)
    expect(hits.get('/dense.ics')).toBe(1)
    // Parsed once and capped, the 20 answers cost well under the seconds a single parse took before.
    expect(cpuMs).toBeLessThan(4_000)

    const deadTeach = await tutorWithFeed('/dead.ics')
    for (let i = 0; i < 20; i++) {
      const res = tally.send(await t.request<{ data: { availabilities: Day[] } }>('GET', `/api/availabilites?teach_id=${deadTeach}`), [])
      expect(res.status).toBe(200)
      expect(res.body.data.availabilities.flatMap((d) => d.times).length).toBeGreaterThan(0)
    }
    expect(hits.get('/dead.ics')).toBe(1)
    finding.figures = { requests: tally.requests, 'feed fetches': (hits.get('/dense.ics') ?? 0) + (hits.get('/dead.ics') ?? 0), 'CPU ms for 20 dense answers': cpuMs, 'wall ms': wallMs }
  })
})
