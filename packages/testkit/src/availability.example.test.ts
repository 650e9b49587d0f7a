import fc from 'fast-check'
import { describe, it } from 'vitest'
import { computeAvailability } from '@tutoring/domain'
import { arbAvailabilityScenario, slotInstants } from '@tutoring/testkit'

// A property as another team writes it against the installed packages. On a failure fast-check
// prints the seed and path that replay it: fc.assert(..., { seed, path }).
describe('availability', () => {
  it('offers no slot starting at or before now, in any zone, schedule or client offset', () => {
    fc.assert(
      fc.property(arbAvailabilityScenario(), (s) => {
        const slots = slotInstants(computeAvailability(s), s.request.utcOffsetMinutes, s.request.durationMinutes)
        return slots.every((slot) => slot.start > s.now.getTime())
      }),
      { numRuns: 50 },
    )
  })
})
