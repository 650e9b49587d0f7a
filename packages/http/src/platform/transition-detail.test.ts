import { describe, expect, it } from 'vitest'
import { BOOKING_STATE_NAMES } from '@tutoring/domain/booking'
import { LESSON_STATE_NAMES } from '@tutoring/domain/lesson'
import { VERIFICATION_STATUSES } from '@tutoring/domain/verification'
import { transitionDetail } from './transition-detail'

describe('the detail of an invalid state transition', () => {
  it('reads as a sentence for the refusals clients meet', () => {
    expect(transitionDetail({ machine: 'experience_rating', from: 'rated', trigger: 'rate' })).toBe('Cannot rate this lesson: it is already rated.')
    expect(transitionDetail({ machine: 'lesson', from: 'ACTIVE', trigger: 'approve' })).toBe('Cannot approve this lesson: it is active, with no new time proposed.')
    expect(transitionDetail({ machine: 'lesson', from: 'RESCHEDULE', trigger: 'propose_reschedule' })).toBe(
      'Cannot propose a new time for this lesson: it is waiting for an answer to a new time.',
    )
    expect(transitionDetail({ machine: 'booking', from: 'hold_expired', trigger: 'pay' })).toBe('Cannot pay for this booking: it is no longer held (its hold expired unpaid).')
    expect(transitionDetail({ machine: 'payment', from: 'succeeded', trigger: 'release' })).toBe('Cannot release this payment: it is captured.')
    expect(transitionDetail({ machine: 'verification', from: 'PASS', trigger: 'submit' })).toBe('Cannot submit a document for this verification: it is passed.')
  })

  it('has no identifier left in it for any state of the booking, lesson and verification machines', () => {
    const machines = [
      { machine: 'booking', states: BOOKING_STATE_NAMES, triggers: ['pay', 'capture', 'cancel', 'expire_hold'] },
      { machine: 'lesson', states: LESSON_STATE_NAMES, triggers: ['propose_reschedule', 'approve', 'decline', 'expire', 'cancel', 'expire_hold'] },
      { machine: 'verification', states: VERIFICATION_STATUSES, triggers: ['submit', 'provider_passed', 'internal_failed'] },
    ]
    for (const { machine, states, triggers } of machines) {
      for (const from of states) {
        for (const trigger of triggers) {
          expect(transitionDetail({ machine, from, trigger })).toMatch(/^Cannot [a-z ]+ this [a-z]+: it is [a-z ,()]+\.$/)
        }
      }
    }
  })
})
