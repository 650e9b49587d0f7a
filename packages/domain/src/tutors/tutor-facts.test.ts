import { describe, expect, it } from 'vitest'
import { temporarySearchEligibility, type SearchEligibilityFacts } from './search-eligibility.temporary'
import { describeExperience } from './tutor-facts'

describe('tutoring experience', () => {
  it('reads as years and months', () => {
    expect(describeExperience(38)).toBe('3 years 2 months')
    expect(describeExperience(13)).toBe('1 year 1 month')
    expect(describeExperience(24)).toBe('2 years')
    expect(describeExperience(5)).toBe('5 months')
    expect(describeExperience(0)).toBe('0 months')
    expect(describeExperience(null)).toBeNull()
  })
})

describe('search eligibility (temporary stand-in)', () => {
  const passed = { status: 'PASS' as const, reference: 'x' }
  const ready: SearchEligibilityFacts = {
    hasProfilePicture: true,
    hasProfileVideo: true,
    hasBio: true,
    hasAddress: true,
    hasMobile: true,
    verifications: { identity: passed, dbs: passed, qualification: passed },
    isVisible: true,
    hasEnabledTeach: true,
    hasSchedule: true,
    offersInPerson: true,
    hasLocation: true,
  }
  it('is eligible with everything in place', () => {
    expect(temporarySearchEligibility(ready)).toEqual({ eligible: true, reasons: [] })
  })
  it('needs a location only when the schedule offers in-person lessons', () => {
    expect(temporarySearchEligibility({ ...ready, hasLocation: false }).reasons).toEqual(['location_missing'])
    expect(temporarySearchEligibility({ ...ready, hasLocation: false, offersInPerson: false })).toEqual({ eligible: true, reasons: [] })
  })
  it('names every missing piece', () => {
    const none = { status: 'NONE' as const, reference: null }
    const result = temporarySearchEligibility({
      ...ready,
      hasProfileVideo: false,
      isVisible: false,
      verifications: { identity: { status: 'PENDING', reference: 'r' }, dbs: passed, qualification: none },
      hasSchedule: false,
    })
    expect(result).toEqual({
      eligible: false,
      reasons: ['profile_video_missing', 'identity_verification_not_passed', 'qualification_verification_not_passed', 'profile_not_visible', 'no_schedule'],
    })
  })
})
