import { ResultAsync } from 'neverthrow'
import type { User } from '../accounts'
import { offersInPerson } from '../schedule'
import type { Forbidden } from '../shared'
import { requireTutor } from '../teaching'
import type { TutorsDeps, TutorsRepos } from './ports'
import {
  temporarySearchEligibility as evaluateSearchEligibility,
  type SearchEligibilityFacts,
} from './search-eligibility.temporary'
import type { TutorVerifications } from './tutor-facts'

export type TutorStatus = { eligible: boolean; reasons: string[]; verifications: TutorVerifications }

/** What still keeps the calling tutor out of search, and where each verification stands. */
export function getTutorStatus(deps: TutorsDeps, actor: User): ResultAsync<TutorStatus, Forbidden> {
  return requireTutor(actor).asyncAndThen((tutor) => ResultAsync.fromSafePromise(statusOf(deps.uow.repos, tutor.id)))
}

async function statusOf(repos: TutorsRepos, tutorId: number): Promise<TutorStatus> {
  const facts = await gatherFacts(repos, tutorId)
  const { eligible, reasons } = evaluateSearchEligibility(facts)
  return { eligible, reasons, verifications: facts.verifications }
}

export async function gatherFacts(repos: TutorsRepos, tutorId: number): Promise<SearchEligibilityFacts> {
  const { tutorDirectory, teaches, daySchedules, locations } = repos
  const [profile, verifications, addresses, mobiles, teachPage, schedule, location] = await Promise.all([
    tutorDirectory.profile(tutorId),
    tutorDirectory.verifications(tutorId),
    tutorDirectory.addresses(tutorId),
    tutorDirectory.mobileNumbers(tutorId),
    teaches.listAvailable({ tutorId }, { page: 1, perPage: 1 }),
    daySchedules.listForTutor(tutorId),
    locations.findForTutor(tutorId),
  ])
  return {
    hasProfilePicture: profile?.hasPicture ?? false,
    hasProfileVideo: profile?.hasVideo ?? false,
    hasBio: (profile?.bio ?? '').trim().length > 0,
    hasAddress: addresses.length > 0,
    hasMobile: mobiles.length > 0,
    verifications,
    isVisible: profile?.isVisible ?? false,
    hasEnabledTeach: teachPage.total > 0,
    hasSchedule: schedule.length > 0,
    offersInPerson: schedule.some(offersInPerson),
    hasLocation: location !== undefined,
  }
}

