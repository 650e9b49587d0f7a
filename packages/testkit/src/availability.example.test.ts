import { describe, it } from 'vitest'
import fc from 'fast-check'
import { computeAvailability } from '@tutoring/domain'
import { arbAvailabilityScenario, slotInstants } from '@tutoring/testkit'

// README.md's example property, as another team would write it against the installed packages.
describe("the README's example property", () => {
  it('no slot starts at or before now, in any zone, schedule or client offset', () => {
    fc.assert(
      fc.property(arbAvailabilityScenario(), (s) => {
        const slots = slotInstants(computeAvailability(s), s.request.utcOffsetMinutes, s.request.durationMinutes)
        return slots.every((slot) => slot.start > s.now.getTime())
      }),
      { numRuns: 50 },
    )
  })
})
