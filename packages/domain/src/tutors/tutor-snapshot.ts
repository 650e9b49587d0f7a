import type { TutorSnapshot } from '../search'
import type { TutorLocationRecord } from '../schedule'
import type { WithoutLocks } from '../shared'
import type { TutorsRepos } from './ports'
import { TUTOR_VERIFICATION_KINDS, type TutorVerifications } from './tutor-facts'

const toLocation = (location: TutorLocationRecord | undefined): TutorSnapshot['location'] =>
  location ? { lat: location.lat, lng: location.lng, travelDistanceMiles: location.travelDistanceMiles } : null

/** What search's eligibility rules need to know of a tutor, read from the tutor's records. */
export async function tutorSnapshot(
  repos: WithoutLocks<TutorsRepos>,
  tutorId: number,
): Promise<{ snapshot: TutorSnapshot; verifications: TutorVerifications }> {
  const { tutorDirectory, daySchedules, holidays, locations } = repos
  const [profile, verifications, addresses, mobiles, schedule, holidayList, location, subscription] = await Promise.all([
    tutorDirectory.profile(tutorId),
    tutorDirectory.verifications(tutorId),
    tutorDirectory.addresses(tutorId),
    tutorDirectory.mobileNumbers(tutorId),
    daySchedules.listForTutor(tutorId),
    holidays.listForTutor(tutorId),
    locations.findForTutor(tutorId),
    tutorDirectory.subscription(tutorId),
  ])
  const statuses = Object.fromEntries(TUTOR_VERIFICATION_KINDS.map((kind) => [kind, verifications[kind].status]))
  const snapshot: TutorSnapshot = {
    profile: {
      hasPicture: profile?.hasPicture ?? false,
      hasVideo: profile?.hasVideo ?? false,
      bio: profile?.bio ?? null,
      hasAddress: addresses.length > 0,
      hasMobile: mobiles.length > 0,
    },
    verifications: statuses as TutorSnapshot['verifications'],
    subscriptionStatus: subscription?.status ?? null,
    isVisible: profile?.isVisible ?? false,
    schedule,
    holidays: holidayList,
    location: toLocation(location),
  }
  return { snapshot, verifications }
}
