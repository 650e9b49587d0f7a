import { describe, expect, it } from 'vitest'
import { SUBSCRIPTION_STATUSES } from '../subscriptions'
import { VERIFICATION_KINDS, VERIFICATION_STATUSES } from '../verification'
import { isBookable, type TutorBookability } from './bookability'

const verified: TutorBookability = { verifications: { identity: 'PASS', dbs: 'PASS', qualification: 'PASS' }, subscriptionStatus: 'trialing' }

describe('who can be booked', () => {
  it('is a tutor with every check passed and a trialing or active subscription', () => {
    expect(isBookable(verified)).toBe(true)
    expect(isBookable({ ...verified, subscriptionStatus: 'active' })).toBe(true)
  })

  it('is no tutor with any check short of PASS', () => {
    for (const kind of VERIFICATION_KINDS) {
      for (const status of VERIFICATION_STATUSES.filter((s) => s !== 'PASS')) {
        expect(isBookable({ ...verified, verifications: { ...verified.verifications, [kind]: status } }), `${kind} ${status}`).toBe(false)
      }
    }
  })

  it('is no tutor whose subscription is missing or neither trialing nor active', () => {
    expect(isBookable({ ...verified, subscriptionStatus: null })).toBe(false)
    for (const status of SUBSCRIPTION_STATUSES.filter((s) => s !== 'trialing' && s !== 'active')) {
      expect(isBookable({ ...verified, subscriptionStatus: status }), status).toBe(false)
    }
  })
})
