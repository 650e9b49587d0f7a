import { describe, expect, it } from 'vitest'
import type { DaySchedule } from '../schedule'
import { searchEligibility } from '../search'
import type { TutorsRepos } from './ports'
import { tutorSnapshot } from './tutor-snapshot'

describe('a tutor as search sees it', () => {
  const none = { status: 'NONE' as const, reference: null }
  const entry: DaySchedule = {
    id: 1,
    tutorId: 7,
    day: 'MONDAY',
    slots: [{ from: '09:00', to: '12:00' }],
    lessonTypes: ['online'],
    bufferMinutes: 10,
    subjectId: 2,
    subjectLevelId: null,
    examBoardId: null,
  }
  const repos = {
    tutorDirectory: {
      profile: async () => ({ id: 1, bio: 'Hi', teacherReferenceNumber: null, tutoringExperienceMonths: 3, isVisible: true, timeZone: 'Europe/London', hasPicture: true, hasVideo: false, createdAt: new Date() }),
      verifications: async () => ({ identity: { status: 'PASS' as const, reference: 'r' }, dbs: none, qualification: none }),
      addresses: async () => [],
      mobileNumbers: async () => [{ id: 1, number: '+447700900123' }],
      subscription: async () => ({ id: 1, status: 'canceled' as const, trialEndsAt: null, currentPeriodEnd: null }),
    },
    daySchedules: { listForTutor: async () => [entry] },
    holidays: { listForTutor: async () => [{ id: 1, tutorId: 7, startDate: '2026-12-24', endDate: '2026-12-26' }] },
    locations: { findForTutor: async () => ({ id: 1, tutorId: 7, postcode: 'SW1A 1AA', outcode: 'SW1A', lat: 51.5, lng: -0.14, travelDistanceMiles: 4 }) },
  } as unknown as TutorsRepos

  it('maps schedule, holidays, location and statuses onto the search snapshot', async () => {
    const { snapshot } = await tutorSnapshot(repos, 7)
    expect(snapshot).toEqual({
      profile: { hasPicture: true, hasVideo: false, bio: 'Hi', hasAddress: false, hasMobile: true },
      verifications: { identity: 'PASS', dbs: 'NONE', qualification: 'NONE' },
      subscriptionStatus: 'canceled',
      isVisible: true,
      schedule: [entry],
      holidays: [{ id: 1, tutorId: 7, startDate: '2026-12-24', endDate: '2026-12-26' }],
      location: { lat: 51.5, lng: -0.14, travelDistanceMiles: 4 },
    })
  })

  it('is judged by the search eligibility rules', async () => {
    const { snapshot } = await tutorSnapshot(repos, 7)
    expect(searchEligibility(snapshot, { today: '2026-12-25' })).toEqual({
      eligible: false,
      reasons: ['profile_video_missing', 'address_missing', 'dbs_not_passed', 'qualification_not_passed', 'on_holiday', 'subscription_inactive'],
    })
  })
})
