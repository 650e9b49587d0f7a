import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Agent, fetch } from 'undici'
import { createLogger } from '@tutoring/adapters'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import type { Geocoder } from '@tutoring/domain/shared'
import { createApp } from '../../src/app'
import { runPeriodically } from '../../src/background-jobs'
import { startServer } from '../../src/server'
import { createTestContext, type TestContext } from '../support/harness'
import { recordFinding } from '../support/findings'

/** A geocoder that answers only when the test lets it, so a request can be held in flight. */
function heldGeocoder() {
  let waiting: Array<() => void> = []
  let arrived: () => void = () => undefined
  let arrival = new Promise<void>((resolve) => (arrived = resolve))
  const geocoder: Geocoder = {
    locate: () =>
      new Promise((resolve) => {
        waiting.push(() => resolve({ lat: 51.501, lng: -0.1416 }))
        arrived()
      }),
  }
  return {
    geocoder,
    /** Resolves when a request is waiting on the geocoder. */
    inFlight: () => arrival,
    release() {
      waiting.forEach((answer) => answer())
      waiting = []
      arrival = new Promise<void>((resolve) => (arrived = resolve))
    },
  }
}

/**
 * Issue 14: shutdown has a deadline and drains the requests under way; /readyz answers
 * 503 while shutting down; background jobs never overlap themselves.
 */
describe.each(testDatabaseKinds())('graceful shutdown, on %s', (kind) => {
  let t: TestContext
  const held = heldGeocoder()
  beforeAll(async () => {
    t = await createTestContext(kind, { SHUTDOWN_TIMEOUT_MS: '1500' }, { geocoder: held.geocoder })
  })
  afterAll(async () => {
    held.release()
    await t.close()
  })

  it('finishes the requests under way, refuses new connections, and cuts off what outlives the deadline', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Graceful shutdown',
      tried: 'stop() with a request in flight (then released), and with one that never finishes (1.5 s deadline)',
      held: 'the request under way answered 200 with Connection: close; new connections refused; stop() returned by the deadline, cutting the stuck request; /readyz 503 while draining',
    })
    let requests = 0
    let lost = 0
    const slowSearch = (url: string, agent: Agent) => {
      requests++
      return fetch(`${url}/api/v1/search?post_code=SW1A%201AA`, { dispatcher: agent })
    }

    // A request under way when the stop begins finishes, and its connection closes.
    const first = await startServer(t.infra, 0)
    const agent = new Agent({ connections: 1 })
    const answer = slowSearch(first.url, agent)
    await held.inFlight()
    const stopped = first.stop()
    await new Promise((resolve) => setTimeout(resolve, 100))
    requests++
    const refused = await fetch(`${first.url}/healthz`, { dispatcher: new Agent() }).then(
      () => false,
      () => true,
    )
    expect(refused).toBe(true)
    held.release()
    const res = await answer
    expect(res.status).toBe(200)
    expect(res.headers.get('connection')).toBe('close')
    await res.text()
    const drainedAt = performance.now()
    await stopped
    expect(performance.now() - drainedAt).toBeLessThan(1_000)
    await agent.close()

    // A request that never finishes is cut off at the deadline, and stop() returns.
    const second = await startServer(t.infra, 0)
    const stuckAgent = new Agent({ connections: 1 })
    const stuck = slowSearch(second.url, stuckAgent).then(
      (r) => r.status,
      () => 'cut' as const,
    )
    await held.inFlight()
    const started = performance.now()
    await second.stop()
    const tookMs = performance.now() - started
    expect(tookMs).toBeGreaterThanOrEqual(1_400)
    expect(tookMs).toBeLessThan(5_000)
    expect(await stuck).toBe('cut')
    await stuckAgent.close()
    held.release()
    if (res.status !== 200) lost++

    // While draining, readiness says so (the listener is closed by then, so ask the app itself).
    requests++
    const draining = await createApp(t.services, { draining: true }).request('/readyz')
    expect(draining.status).toBe(503)
    expect(await draining.json()).toMatchObject({ code: 'service_unavailable', checks: { database: 'up' } })
    finding.figures = { requests, 'faults injected': 2, lost, 'cut at the deadline': 1, duplicated: 0 }
  })
})

describe('background jobs', () => {
  it('never overlap themselves, keep going after a failure, and are waited for on stop', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Background jobs',
      tried: 'a job every 10 ms that takes 60 ms and fails every other run, for six runs, then stop()',
      held: 'never two runs at once; runs went on after failures; stop() waited for the run under way',
    })
    let running = 0
    let most = 0
    let runs = 0
    const jobs = runPeriodically(
      [
        {
          name: 'slow',
          everyMs: 10,
          async run() {
            running++
            runs++
            most = Math.max(most, running)
            await new Promise((resolve) => setTimeout(resolve, 60))
            running--
            if (runs % 2 === 0) throw new Error('every other run fails')
          },
        },
      ],
      createLogger('silent'),
    )
    // Until several runs (and failures) happened, however slowly a busy machine turns the timers.
    for (let waited = 0; runs < 6 && waited < 20_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20))
    const before = runs
    await jobs.stop(5_000)
    const stillRunning = running
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(most).toBe(1)
    expect(runs).toBeGreaterThanOrEqual(6)
    expect(runs).toBe(before)
    // Runs take 60 ms of every 70: stop() nearly always lands in one, and must wait for it.
    expect(stillRunning).toBe(0)
    finding.figures = { runs, 'most at once': most, 'faults injected': Math.floor(runs / 2), lost: 0, duplicated: most - 1 }
  })
})
