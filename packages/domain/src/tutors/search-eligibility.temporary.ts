import { TUTOR_VERIFICATION_KINDS, type TutorVerifications } from './tutor-facts'

/**
 * TEMPORARY: a stand-in for the domain's search-eligibility function, which is being
 * written on the domain-core branch. `get-tutor-status.ts` imports it under the name
 * `evaluateSearchEligibility`; when the real one lands, that import is the one line to
 * change (and this file goes). It covers what a tutor controls and search checks for all
 * dates (SPEC "A tutor appears in results only when..." 1-4 and 6); holidays and the
 * requested date are per-search and are not reasons here.
 */
export type SearchEligibilityFacts = {
  hasProfilePicture: boolean
  hasProfileVideo: boolean
  hasBio: boolean
  hasAddress: boolean
  hasMobile: boolean
  verifications: TutorVerifications
  isVisible: boolean
  hasEnabledTeach: boolean
  hasSchedule: boolean
  offersInPerson: boolean
  hasLocation: boolean
}

export type SearchEligibility = { eligible: boolean; reasons: string[] }

/** Reason codes, in the order a tutor would work through them. */
export function temporarySearchEligibility(facts: SearchEligibilityFacts): SearchEligibility {
  const reasons: string[] = []
  if (!facts.hasProfilePicture) reasons.push('profile_picture_missing')
  if (!facts.hasProfileVideo) reasons.push('profile_video_missing')
  if (!facts.hasBio) reasons.push('bio_missing')
  if (!facts.hasAddress) reasons.push('address_missing')
  if (!facts.hasMobile) reasons.push('mobile_missing')
  for (const kind of TUTOR_VERIFICATION_KINDS) {
    if (facts.verifications[kind].status !== 'PASS') reasons.push(`${kind}_verification_not_passed`)
  }
  if (!facts.isVisible) reasons.push('profile_not_visible')
  if (!facts.hasEnabledTeach) reasons.push('no_enabled_teach')
  if (!facts.hasSchedule) reasons.push('no_schedule')
  if (facts.offersInPerson && !facts.hasLocation) reasons.push('location_missing')
  return { eligible: reasons.length === 0, reasons }
}
