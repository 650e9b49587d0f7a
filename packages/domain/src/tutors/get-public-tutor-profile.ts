import { err, ok, ResultAsync, type Result } from 'neverthrow'
import type { User } from '../accounts'
import { notFound, type NotFound } from '../shared'
import type { AvailableTeach } from '../teaching'
import { WHOLE_LIST, type TutorsDeps } from './ports'
import {
  TUTOR_VERIFICATION_KINDS,
  type TutorEducation,
  type TutorLanguage,
  type TutorProfession,
  type TutorProfileFacts,
  type TutorReviewStanding,
  type TutorSocialLink,
  type TutorVerificationKind,
} from './tutor-facts'

/**
 * What anyone may see of a tutor (SPEC "Public tutor profile", CONTRACT §14). The location
 * is the postcode's outward code, coordinates rounded to two places (about a kilometre) and
 * the travel distance, never the address; a verification shows only whether it passed.
 */
export type PublicTutorProfile = {
  tutor: User
  profile: TutorProfileFacts
  verified: boolean
  verificationsPassed: Record<TutorVerificationKind, boolean>
  location: { outcode: string; lat: number; lng: number; travelDistanceMiles: number } | null
  education: TutorEducation[]
  professions: TutorProfession[]
  languages: TutorLanguage[]
  socialLinks: TutorSocialLink[]
  standing: TutorReviewStanding
  /** Hours taught in minutes, as stored; http shows hours. */
  minutesTaught: number
  teaches: AvailableTeach[]
}

/** Two decimal places of a degree: about 1.1 km of latitude, coarse enough to hide a home. */
const coarse = (degrees: number): number => Math.round(degrees * 100) / 100

export function getPublicTutorProfile(deps: TutorsDeps, tutorId: number): ResultAsync<PublicTutorProfile, NotFound> {
  return new ResultAsync(run(deps, tutorId))
}

async function run(deps: TutorsDeps, tutorId: number): Promise<Result<PublicTutorProfile, NotFound>> {
  const { tutorDirectory, locations, teaches } = deps.uow.repos
  const tutor = await tutorDirectory.findTutor(tutorId)
  const profile = tutor && (await tutorDirectory.profile(tutorId))
  if (!tutor || !profile) return err(notFound('tutor'))
  const [verifications, location, languages, offered, education, professions, socialLinks, standing, minutesTaught] = await Promise.all([
    tutorDirectory.verifications(tutorId),
    locations.findForTutor(tutorId),
    tutorDirectory.languages(tutorId),
    teaches.listAvailable({ tutorId }, WHOLE_LIST),
    tutorDirectory.education(tutorId),
    tutorDirectory.professions(tutorId),
    tutorDirectory.socialLinks(tutorId),
    tutorDirectory.reviewStanding(tutorId),
    tutorDirectory.minutesTaught(tutorId),
  ])
  const verificationsPassed = Object.fromEntries(
    TUTOR_VERIFICATION_KINDS.map((kind) => [kind, verifications[kind].status === 'PASS']),
  ) as Record<TutorVerificationKind, boolean>
  return ok({
    tutor,
    profile,
    verified: TUTOR_VERIFICATION_KINDS.every((kind) => verificationsPassed[kind]),
    verificationsPassed,
    location: location
      ? { outcode: location.outcode, lat: coarse(location.lat), lng: coarse(location.lng), travelDistanceMiles: location.travelDistanceMiles }
      : null,
    education,
    professions,
    languages,
    socialLinks,
    standing,
    minutesTaught,
    teaches: offered.items,
  })
}
