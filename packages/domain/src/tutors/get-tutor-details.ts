import { err, ok, ResultAsync, type Result } from 'neverthrow'
import type { User } from '../accounts'
import type { DaySchedule, TutorHoliday, TutorLocationRecord } from '../schedule'
import { forbidden, isInternal, notFound, type Forbidden, type NotFound, type Actor } from '../shared'
import type { Teach } from '../teaching'
import { WHOLE_LIST, type TutorsDeps } from './ports'
import type {
  TutorAddress,
  TutorLanguage,
  TutorMobileNumber,
  TutorPersonalDetails,
  TutorProfileFacts,
  TutorSubscription,
  TutorVerifications,
} from './tutor-facts'

/** Everything about a tutor, for internal staff (`GET /api/tutors/{id}`). */
export type TutorDetails = {
  tutor: User
  personalDetails: TutorPersonalDetails | null
  addresses: TutorAddress[]
  mobileNumbers: TutorMobileNumber[]
  profile: TutorProfileFacts | null
  languages: TutorLanguage[]
  teaches: Teach[]
  schedule: DaySchedule[]
  location: TutorLocationRecord | null
  holidays: TutorHoliday[]
  verifications: TutorVerifications
  subscription: TutorSubscription | null
}

export function getTutorDetails(deps: TutorsDeps, actor: Actor, tutorId: number): ResultAsync<TutorDetails, NotFound | Forbidden> {
  if (!isInternal(actor.roleId)) return new ResultAsync(Promise.resolve(err(forbidden('Only internal staff may see this.'))))
  return new ResultAsync(run(deps, tutorId))
}

async function run(deps: TutorsDeps, tutorId: number): Promise<Result<TutorDetails, NotFound>> {
  const { tutorDirectory: directory, teaches, daySchedules, locations, holidays } = deps.uow.repos
  const tutor = await directory.findTutor(tutorId)
  if (!tutor) return err(notFound('tutor'))
  const [personalDetails, addresses, mobileNumbers, profile, languages, teachPage, schedule, location, holidayList, verifications, subscription] =
    await Promise.all([
      directory.personalDetails(tutorId),
      directory.addresses(tutorId),
      directory.mobileNumbers(tutorId),
      directory.profile(tutorId),
      directory.languages(tutorId),
      teaches.list({ tutorId }, WHOLE_LIST),
      daySchedules.listForTutor(tutorId),
      locations.findForTutor(tutorId),
      holidays.listForTutor(tutorId),
      directory.verifications(tutorId),
      directory.subscription(tutorId),
    ])
  return ok({
    tutor,
    personalDetails: personalDetails ?? null,
    addresses,
    mobileNumbers,
    profile: profile ?? null,
    languages,
    teaches: teachPage.items,
    schedule,
    location: location ?? null,
    holidays: holidayList,
    verifications,
    subscription: subscription ?? null,
  })
}
