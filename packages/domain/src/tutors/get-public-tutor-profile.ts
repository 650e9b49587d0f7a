import { err, ok, ResultAsync, type Result } from 'neverthrow'
import type { User } from '../accounts'
import { notFound, type NotFound } from '../shared'
import type { AvailableTeach } from '../teaching'
import { WHOLE_LIST, type TutorsDeps } from './ports'
import {
  TUTOR_VERIFICATION_KINDS,
  type TutorLanguage,
  type TutorProfileFacts,
  type TutorVerificationKind,
} from './tutor-facts'

/**
 * What anyone may see of a tutor (SPEC "Public tutor profile"). The location is only the
 * postcode's outward code and the travel distance, never the address or coordinates; a
 * verification shows only whether it passed.
 */
export type PublicTutorProfile = {
  tutor: User
  profile: TutorProfileFacts
  verified: boolean
  verificationsPassed: Record<TutorVerificationKind, boolean>
  location: { outcode: string; travelDistanceMiles: number } | null
  languages: TutorLanguage[]
  teaches: AvailableTeach[]
}

export function getPublicTutorProfile(deps: TutorsDeps, tutorId: number): ResultAsync<PublicTutorProfile, NotFound> {
  return new ResultAsync(run(deps, tutorId))
}

async function run(deps: TutorsDeps, tutorId: number): Promise<Result<PublicTutorProfile, NotFound>> {
  const { tutorDirectory, locations, teaches } = deps.uow.repos
  const tutor = await tutorDirectory.findTutor(tutorId)
  const profile = tutor && (await tutorDirectory.profile(tutorId))
  if (!tutor || !profile) return err(notFound('tutor'))
  const [verifications, location, languages, offered] = await Promise.all([
    tutorDirectory.verifications(tutorId),
    locations.findForTutor(tutorId),
    tutorDirectory.languages(tutorId),
    teaches.listAvailable({ tutorId }, WHOLE_LIST),
  ])
  const verificationsPassed = Object.fromEntries(
    TUTOR_VERIFICATION_KINDS.map((kind) => [kind, verifications[kind].status === 'PASS']),
  ) as Record<TutorVerificationKind, boolean>
  return ok({
    tutor,
    profile,
    verified: TUTOR_VERIFICATION_KINDS.every((kind) => verificationsPassed[kind]),
    verificationsPassed,
    location: location ? { outcode: location.outcode, travelDistanceMiles: location.travelDistanceMiles } : null,
    languages,
    teaches: offered.items,
  })
}
