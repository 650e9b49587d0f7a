import { describe, expect, it } from 'vitest'
import {
  VERIFICATION_TRANSITIONS,
  allVerificationsPassed,
  internalReviewTrigger,
  providerResultTrigger,
  transitionVerification,
} from './verification'

const identity = { kind: 'identity' as const, documentUploaded: false }
const dbsWithDocument = { kind: 'dbs' as const, documentUploaded: true }
const email = { type: 'QueueEmail', template: 'tutor_id_verification_status_updated', to: 'internal_mailbox' }

describe('verification state machine', () => {
  it.each(VERIFICATION_TRANSITIONS.map((row) => [row.from, row.trigger, row.to] as const))(
    'moves %s on %s to %s when its guard holds',
    (from, trigger, to) => {
      expect(transitionVerification(from, trigger, dbsWithDocument)._unsafeUnwrap().to).toBe(to)
    },
  )

  it('makes a first submission PENDING', () => {
    expect(transitionVerification('NONE', 'submit', identity)._unsafeUnwrap()).toEqual({ to: 'PENDING', effects: [] })
  })

  it('takes a resubmission after FAIL', () => {
    expect(transitionVerification('FAIL', 'submit', identity)._unsafeUnwrap().to).toBe('PENDING')
  })

  it('refuses a submission once passed or under review', () => {
    expect(transitionVerification('PASS', 'submit', identity)._unsafeUnwrapErr().type).toBe('InvalidStateTransition')
    expect(transitionVerification('INTERNAL_REVIEW', 'submit', identity)._unsafeUnwrapErr().type).toBe('InvalidStateTransition')
  })

  it('records each provider result and tells the internal team', () => {
    expect(transitionVerification('PENDING', providerResultTrigger('PASS'), identity)._unsafeUnwrap()).toEqual({ to: 'PASS', effects: [email] })
    expect(transitionVerification('PENDING', providerResultTrigger('FAIL'), identity)._unsafeUnwrap().to).toBe('FAIL')
    expect(transitionVerification('PENDING', providerResultTrigger('INTERNAL_REVIEW'), identity)._unsafeUnwrap().to).toBe('INTERNAL_REVIEW')
  })

  it('refuses a provider result with nothing pending (a late or repeated webhook)', () => {
    expect(transitionVerification('PASS', 'provider_failed', identity)._unsafeUnwrapErr().type).toBe('InvalidStateTransition')
    expect(transitionVerification('NONE', 'provider_passed', identity)._unsafeUnwrapErr().type).toBe('InvalidStateTransition')
  })

  it('refuses an internal PASS for a document never uploaded', () => {
    for (const from of ['NONE', 'PENDING'] as const) {
      expect(transitionVerification(from, internalReviewTrigger('PASS'), { kind: 'qualification', documentUploaded: false })._unsafeUnwrapErr()).toEqual({
        type: 'DocumentMissing',
        kind: 'qualification',
      })
    }
  })

  it('refuses an internal review of identity, which only the provider checks', () => {
    expect(transitionVerification('PENDING', 'internal_passed', { ...identity, documentUploaded: true })._unsafeUnwrapErr().type).toBe(
      'ValidationFailed',
    )
  })

  it('lets staff overturn a PASS with a FAIL, and a FAIL with a PASS', () => {
    expect(transitionVerification('PASS', internalReviewTrigger('FAIL'), dbsWithDocument)._unsafeUnwrap().to).toBe('FAIL')
    expect(transitionVerification('FAIL', internalReviewTrigger('PASS'), dbsWithDocument)._unsafeUnwrap().to).toBe('PASS')
  })

  it('counts a tutor verified only when all three kinds passed', () => {
    expect(allVerificationsPassed({ identity: 'PASS', dbs: 'PASS', qualification: 'PASS' })).toBe(true)
    expect(allVerificationsPassed({ identity: 'PASS', dbs: 'INTERNAL_REVIEW', qualification: 'PASS' })).toBe(false)
  })
})
