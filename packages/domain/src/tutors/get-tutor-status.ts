import { ResultAsync } from 'neverthrow'
import { searchEligibility, type EligibilityReason } from '../search'
import { londonToday, type Forbidden, type Actor } from '../shared'
import { requireTutor } from '../teaching'
import type { TutorsDeps } from './ports'
import type { TutorVerifications } from './tutor-facts'
import { tutorSnapshot } from './tutor-snapshot'

export type TutorStatus = { eligible: boolean; reasons: EligibilityReason[]; verifications: TutorVerifications }

/**
 * What still keeps the calling tutor out of search, as search's own eligibility rules say
 * it for today (London), and where each verification stands.
 */
export function getTutorStatus(deps: TutorsDeps, actor: Actor): ResultAsync<TutorStatus, Forbidden> {
  return requireTutor(actor).asyncAndThen((tutor) => ResultAsync.fromSafePromise(statusOf(deps, tutor.id)))
}

async function statusOf(deps: TutorsDeps, tutorId: number): Promise<TutorStatus> {
  const { snapshot, verifications } = await tutorSnapshot(deps.uow.repos, tutorId)
  const result = searchEligibility(snapshot, { today: londonToday(deps.clock.now()) })
  return { eligible: result.eligible, reasons: result.eligible ? [] : [...result.reasons], verifications }
}
