import fc from 'fast-check'
import type { SearchQuery, TutorSnapshot } from '@tutoring/domain/search'
import { LESSON_TYPES } from '@tutoring/domain/shared'
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '@tutoring/domain/subscriptions'
import { VERIFICATION_STATUSES } from '@tutoring/domain/verification'
import { arbWeeklySchedule } from './availability'

/** A tutor who passes every rule for an online search without a date. */
export const anEligibleTutor = (overrides: Partial<TutorSnapshot> = {}): TutorSnapshot => ({
  profile: { hasPicture: true, hasVideo: true, bio: 'Maths and physics, ten years.', hasAddress: true, hasMobile: true },
  verifications: { identity: 'PASS', dbs: 'PASS', qualification: 'PASS' },
  subscriptionStatus: 'trialing',
  isVisible: true,
  schedule: [{ day: 'MONDAY', slots: [{ from: '09:00', to: '17:00' }], lessonTypes: ['online', 'tutors_home', 'students_home'], bufferMinutes: 15 }],
  holidays: [],
  location: { lat: 51.5074, lng: -0.1278, travelDistanceMiles: 10 },
  ...overrides,
})

const DAY = 86_400_000
const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10)
const TODAY_MS = Date.UTC(2026, 5, 1)
/** Around London, so that distances fall on both sides of typical travel distances. */
const arbPoint = () => fc.record({ lat: fc.double({ min: 51.2, max: 51.8, noNaN: true }), lng: fc.double({ min: -0.6, max: 0.4, noNaN: true }) })

/** Mostly `usual`, now and then anything `arb` gives: each rule fails about a tenth of the time. */
const mostly = <T>(usual: T, arb: fc.Arbitrary<T>): fc.Arbitrary<T> =>
  fc.oneof({ weight: 9, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: arb })

const EVERY_DAY_ALL_TYPES = anEligibleTutor().schedule.flatMap((entry) =>
  (['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'] as const).map((day) => ({ ...entry, day })),
)

/**
 * Tutors that break each rule now and then, so that eligible tutors, single failures and
 * every mix of reasons all turn up in a thousand runs.
 */
export const arbTutorSnapshot = (): fc.Arbitrary<TutorSnapshot> =>
  fc.record({
    profile: fc.record({
      hasPicture: mostly(true, fc.boolean()),
      hasVideo: mostly(true, fc.boolean()),
      bio: mostly<string | null>('Chemistry tutor', fc.constantFrom(null, '', '   ')),
      hasAddress: mostly(true, fc.boolean()),
      hasMobile: mostly(true, fc.boolean()),
    }),
    verifications: fc.record({
      identity: mostly('PASS' as const, fc.constantFrom(...VERIFICATION_STATUSES)),
      dbs: mostly('PASS' as const, fc.constantFrom(...VERIFICATION_STATUSES)),
      qualification: mostly('PASS' as const, fc.constantFrom(...VERIFICATION_STATUSES)),
    }),
    subscriptionStatus: mostly<SubscriptionStatus | null>('active', fc.constantFrom(null, ...SUBSCRIPTION_STATUSES)),
    isVisible: mostly(true, fc.boolean()),
    schedule: fc.oneof(
      { weight: 6, arbitrary: fc.constant(EVERY_DAY_ALL_TYPES) },
      { weight: 3, arbitrary: arbWeeklySchedule() },
      { weight: 1, arbitrary: fc.constant([]) },
    ),
    holidays: mostly(
      [],
      fc.array(
        fc.record({ from: fc.integer({ min: -5, max: 20 }), days: fc.integer({ min: 0, max: 5 }) }).map(({ from, days }) => ({
          startDate: isoDate(TODAY_MS + from * DAY),
          endDate: isoDate(TODAY_MS + (from + days) * DAY),
        })),
        { minLength: 1, maxLength: 2 },
      ),
    ),
    location: fc.oneof(
      { weight: 9, arbitrary: fc.tuple(arbPoint(), fc.integer({ min: 5, max: 40 })).map(([point, miles]) => ({ ...point, travelDistanceMiles: miles })) },
      { weight: 1, arbitrary: fc.constant(null) },
    ),
  })

/** Searches around 2026-06-01, dated from a few days before today to a few past the window. */
export const arbSearchQuery = (): fc.Arbitrary<SearchQuery> =>
  fc.record(
    {
      today: fc.constant(isoDate(TODAY_MS)),
      date: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 14 }) }, { weight: 1, arbitrary: fc.integer({ min: -3, max: 18 }) }).map(
        (d) => isoDate(TODAY_MS + d * DAY),
      ),
      lessonType: fc.constantFrom(...LESSON_TYPES),
      studentLocation: arbPoint(),
    },
    { requiredKeys: ['today'] },
  )
