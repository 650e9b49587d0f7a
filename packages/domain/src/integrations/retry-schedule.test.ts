import { describe, expect, it } from 'vitest'
import { DAY_MS } from '../shared'
import { nextAttemptAfterFailure, RETRY_WINDOW_MS } from './retry-schedule'

describe('the retry schedule', () => {
  it('keeps retrying a delivery that always fails for at least 3 days, then gives it up', () => {
    const created = new Date('2026-12-01T00:00:00Z')
    let now = created
    let attempts = 1
    let next = nextAttemptAfterFailure(attempts, created, now)
    const times: Date[] = []
    while (next) {
      times.push(next)
      now = next
      attempts++
      next = nextAttemptAfterFailure(attempts, created, now)
    }
    expect(now.getTime() - created.getTime()).toBeGreaterThanOrEqual(RETRY_WINDOW_MS)
    expect(now.getTime() - created.getTime()).toBeLessThan(RETRY_WINDOW_MS + DAY_MS)
    // Backing off: no wait shorter than the one before it.
    const waits = times.map((t, i) => t.getTime() - (i === 0 ? created.getTime() : times[i - 1]!.getTime()))
    expect(waits).toEqual([...waits].sort((a, b) => a - b))
  })
})
