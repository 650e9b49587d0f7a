import type { Clock } from '@tutoring/domain/shared'

/** A clock the test moves by hand. */
export function manualClock(start = new Date()): Clock & { advance(ms: number): void; set(at: Date): void } {
  let now = start.getTime()
  return {
    now: () => new Date(now),
    advance: (ms) => {
      now += ms
    },
    set: (at) => {
      now = at.getTime()
    },
  }
}
