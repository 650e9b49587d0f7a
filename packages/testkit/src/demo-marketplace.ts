/**
 * Generated demo tutors: tutors over real UK places with subjects, levels, rates, weekly
 * schedules, holidays, verification statuses and more or less complete profiles, as plain
 * data that adapters' `loadDemoTutors` writes. `tutoring seed --demo N` draws from it (by the
 * subpath `@tutoring/testkit/demo`, which loads no fast-check); the testkit's marketplaces,
 * the search tests and the benchmark too. Deterministic for a seed, so any
 * of them can be reproduced.
 */
import { overallRating } from '@tutoring/domain/reviews'
import { DAY_NAMES, type DayName } from '@tutoring/domain/schedule'
import type { TutorSnapshot } from '@tutoring/domain/search'
import { addDays, LESSON_TYPES, type IsoDate, type LessonTypeName } from '@tutoring/domain/shared'
import type { SubscriptionStatus } from '@tutoring/domain/subscriptions'
import type { VerificationStatus } from '@tutoring/domain/verification'

/** A tutor and every record that makes them searchable or not, as `demoTutors` makes them. */
export type DemoTutor = {
  firstname: string
  lastname: string
  gender: 'male' | 'female' | null
  bio: string | null
  hasPicture: boolean
  hasVideo: boolean
  hasMobile: boolean
  /** A home address (search rule 1), in the tutor's own town. */
  address: { line1: string; city: string; postcode: string } | null
  isVisible: boolean
  tutoringExperienceMonths: number | null
  verifications: { identity: VerificationStatus; dbs: VerificationStatus; qualification: VerificationStatus }
  /** The live subscription's status; null for none. */
  subscriptionStatus: SubscriptionStatus | null
  languageIds: readonly number[]
  location: { postcode: string; outcode: string; lat: number; lng: number; travelDistanceMiles: number } | null
  teaches: ReadonlyArray<{ subjectId: number; levelIds: readonly number[]; examBoardIds: readonly number[]; hourlyRatePence: number; enabled: boolean }>
  schedule: ReadonlyArray<{ day: DayName; slots: ReadonlyArray<{ from: string; to: string }>; lessonTypes: readonly LessonTypeName[]; bufferMinutes: number }>
  holidays: ReadonlyArray<{ startDate: IsoDate; endDate: IsoDate }>
  /** What the tutor's reviews come to (`tutor_ratings`), as the review use case would store it; null for no review. */
  rating: { overallRating: number; reviewCount: number } | null
}

/** The reference data ids demo tutors are drawn from (read from the database they go into). */
export type DemoCatalog = {
  subjects: Array<{ id: number; levelIds: number[] }>
  examBoardIds: number[]
  languageIds: number[]
}

/** Town and city centres with a postcode there: real coordinates, rounded. */
export const UK_PLACES = [
  { postcode: 'SW1A 1AA', outcode: 'SW1A', lat: 51.501, lng: -0.1416 },
  { postcode: 'EC1A 1BB', outcode: 'EC1A', lat: 51.5201, lng: -0.0977 },
  { postcode: 'W1A 1AA', outcode: 'W1A', lat: 51.5186, lng: -0.1439 },
  { postcode: 'SE1 9SG', outcode: 'SE1', lat: 51.5045, lng: -0.0865 },
  { postcode: 'E14 5AB', outcode: 'E14', lat: 51.5054, lng: -0.0235 },
  { postcode: 'N1 9AL', outcode: 'N1', lat: 51.5308, lng: -0.1238 },
  { postcode: 'SW19 5AE', outcode: 'SW19', lat: 51.4214, lng: -0.2064 },
  { postcode: 'CR0 1LF', outcode: 'CR0', lat: 51.3762, lng: -0.0982 },
  { postcode: 'KT1 1EU', outcode: 'KT1', lat: 51.4123, lng: -0.3007 },
  { postcode: 'AL1 3JE', outcode: 'AL1', lat: 51.752, lng: -0.336 },
  { postcode: 'GU1 3UW', outcode: 'GU1', lat: 51.2362, lng: -0.5704 },
  { postcode: 'RG1 1AX', outcode: 'RG1', lat: 51.4543, lng: -0.9781 },
  { postcode: 'OX1 2JD', outcode: 'OX1', lat: 51.754, lng: -1.2544 },
  { postcode: 'CB2 1TN', outcode: 'CB2', lat: 52.2043, lng: 0.1149 },
  { postcode: 'MK9 2EA', outcode: 'MK9', lat: 52.0406, lng: -0.7594 },
  { postcode: 'BN1 1EE', outcode: 'BN1', lat: 50.8225, lng: -0.1372 },
  { postcode: 'CT1 2EH', outcode: 'CT1', lat: 51.2798, lng: 1.0789 },
  { postcode: 'SO14 7DU', outcode: 'SO14', lat: 50.9097, lng: -1.4044 },
  { postcode: 'BS1 4DJ', outcode: 'BS1', lat: 51.4545, lng: -2.5879 },
  { postcode: 'EX1 1HS', outcode: 'EX1', lat: 50.7236, lng: -3.5275 },
  { postcode: 'PL1 2AA', outcode: 'PL1', lat: 50.3714, lng: -4.1422 },
  { postcode: 'CF10 1EP', outcode: 'CF10', lat: 51.4816, lng: -3.1791 },
  { postcode: 'B1 1BB', outcode: 'B1', lat: 52.4796, lng: -1.9026 },
  { postcode: 'CV1 5RR', outcode: 'CV1', lat: 52.4081, lng: -1.5106 },
  { postcode: 'LE1 5YA', outcode: 'LE1', lat: 52.6345, lng: -1.1296 },
  { postcode: 'NG1 5FS', outcode: 'NG1', lat: 52.9536, lng: -1.1505 },
  { postcode: 'NR2 1NH', outcode: 'NR2', lat: 52.6291, lng: 1.2927 },
  { postcode: 'M1 1AE', outcode: 'M1', lat: 53.4808, lng: -2.2426 },
  { postcode: 'L1 8JQ', outcode: 'L1', lat: 53.4048, lng: -2.9791 },
  { postcode: 'LS1 1UR', outcode: 'LS1', lat: 53.7996, lng: -1.5491 },
  { postcode: 'S1 2HH', outcode: 'S1', lat: 53.3811, lng: -1.4701 },
  { postcode: 'YO1 7HH', outcode: 'YO1', lat: 53.96, lng: -1.0873 },
  { postcode: 'NE1 7RU', outcode: 'NE1', lat: 54.9738, lng: -1.6132 },
  { postcode: 'EH1 1YZ', outcode: 'EH1', lat: 55.9533, lng: -3.1883 },
  { postcode: 'G1 1XQ', outcode: 'G1', lat: 55.8609, lng: -4.2514 },
  { postcode: 'AB10 1AF', outcode: 'AB10', lat: 57.1471, lng: -2.0955 },
  { postcode: 'BT1 5GS', outcode: 'BT1', lat: 54.5973, lng: -5.9301 },
] as const

export type DemoTutorOptions = {
  seed: number
  tutors: number
  /** London's today: holidays fall around it. */
  today: IsoDate
  catalog: DemoCatalog
  /** Every tutor passes rules 1-5 and 8 whatever the date (demo data); otherwise each rule fails now and then. */
  searchableOnly?: boolean
}

/** mulberry32: small, fast and good enough for test data. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

const FIRST_NAMES = ['Ada', 'Alan', 'Grace', 'Isaac', 'Marie', 'Niels', 'Rosalind', 'Srinivasa', 'Emmy', 'Dorothy', 'Tim', 'Mary', 'Charles', 'Hedy']
const LAST_NAMES = ['Lovelace', 'Turing', 'Hopper', 'Newton', 'Curie', 'Bohr', 'Franklin', 'Ramanujan', 'Noether', 'Hodgkin', 'Berners-Lee', 'Somerville', 'Babbage', 'Lamarr']
const WINDOWS: ReadonlyArray<Array<{ from: string; to: string }>> = [
  [{ from: '09:00', to: '17:00' }],
  [{ from: '16:00', to: '20:00' }],
  [
    { from: '08:00', to: '12:00' },
    { from: '13:00', to: '18:30' },
  ],
  [{ from: '10:00', to: '14:00' }],
]
const OTHER_STATUSES: readonly VerificationStatus[] = ['NONE', 'PENDING', 'FAIL', 'INTERNAL_REVIEW']
/** Subscriptions that are not valid (null: none at all). */
const LAPSED_SUBSCRIPTIONS: ReadonlyArray<SubscriptionStatus | null> = [null, 'canceled', 'incomplete', 'incomplete_expired']

/** Every demo tutor of `options` at once, for tests that look at them by index. */
export const generateDemoTutors = (options: DemoTutorOptions): DemoTutor[] => [...demoTutors(options)]

/**
 * The demo tutors one at a time, so a million (2.3 GB as one array) need not be held at
 * once: `loadDemoTutors` takes them a chunk at a time.
 */
export function* demoTutors(options: DemoTutorOptions): Generator<DemoTutor> {
  const rnd = random(options.seed)
  const chance = (p: number) => rnd() < p
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!
  const int = (min: number, max: number) => min + Math.floor(rnd() * (max - min + 1))
  const some = <T>(items: readonly T[], min: number, max: number): T[] => {
    const pool = [...items]
    const n = Math.min(pool.length, int(min, max))
    const out: T[] = []
    for (let i = 0; i < n; i++) out.push(pool.splice(Math.floor(rnd() * pool.length), 1)[0]!)
    return out
  }
  const all = options.searchableOnly === true
  // Each part of rules 1-3 fails for about one tutor in twelve.
  const usually = () => all || !chance(1 / 12)
  const subjects = options.catalog.subjects.filter((s) => s.levelIds.length > 0)
  if (subjects.length === 0) throw new Error('the catalog has no subject with levels')

  // Subscriptions are drawn from a stream of their own, so every other draw of a seed stays as it was.
  const rndSubscription = random(options.seed ^ 0x5ab5c41b)
  const subscription = (): SubscriptionStatus | null => {
    const draw = rndSubscription()
    // Rule 8 fails for about one tutor in twelve, like each part of rules 1-3.
    if (!all && draw < 1 / 12) return LAPSED_SUBSCRIPTIONS[Math.floor(draw * 12 * LAPSED_SUBSCRIPTIONS.length)] ?? null
    return draw < 0.55 ? 'trialing' : 'active'
  }

  // Ratings too, for the same reason.
  const rndRating = random(options.seed ^ 0x2a71b6d3)
  const rating = (): DemoTutor['rating'] => {
    if (rndRating() >= 0.6) return null
    const count = 1 + Math.floor(rndRating() * 80)
    // A tutor's level, 3.0 to 5.0; each criterion's marks sum near it, as real reviews
    // (marks 1 to 5) could, and the rating is the domain's rule over those totals.
    const level = 3 + 2 * rndRating()
    const total = () => Math.min(5 * count, Math.max(3 * count, Math.round((level + (rndRating() - 0.5) * 0.4) * count)))
    const overall = overallRating({ count, knowledge: total(), communication: total(), punctuality: total() })
    return overall === null ? null : { overallRating: overall, reviewCount: count }
  }

  for (let i = 0; i < options.tutors; i++) {
    const place = pick(UK_PLACES)
    // Within about three miles of the place's centre.
    const lat = round(place.lat + (rnd() - 0.5) * 0.09, 6)
    const lng = round(place.lng + (rnd() - 0.5) * 0.14, 6)
    const verification = (): VerificationStatus => (usually() ? 'PASS' : pick(OTHER_STATUSES))
    const teaches = some(subjects, 1, 3).map((subject) => ({
      subjectId: subject.id,
      levelIds: some(subject.levelIds, 1, 3).sort((a, b) => a - b),
      examBoardIds: some(options.catalog.examBoardIds, 0, 2).sort((a, b) => a - b),
      hourlyRatePence: int(30, 120) * 50,
      enabled: all || !chance(0.1),
    }))
    if (all && !teaches.some((t) => t.enabled)) teaches[0]!.enabled = true
    const days = some(DAY_NAMES, all ? 3 : 0, 6)
    const schedule = days.map((day) => ({
      day,
      slots: pick(WINDOWS),
      lessonTypes: some(LESSON_TYPES, 1, 3),
      bufferMinutes: int(0, 6) * 5,
    }))
    const holidays =
      all || !chance(0.25)
        ? []
        : Array.from({ length: int(1, 2) }, () => {
            const start = addDays(options.today, int(-5, 18))
            return { startDate: start, endDate: addDays(start, int(0, 5)) }
          })
    yield {
      firstname: pick(FIRST_NAMES),
      lastname: pick(LAST_NAMES),
      gender: chance(0.1) ? null : chance(0.5) ? 'female' : 'male',
      bio: usually() ? `Tutor ${i + 1}: patient, exam-focused lessons.` : pick([null, '', '   ']),
      hasPicture: usually(),
      hasVideo: usually(),
      hasMobile: usually(),
      address: usually() ? { line1: `${int(1, 200)} High Street`, city: place.outcode, postcode: place.postcode } : null,
      isVisible: usually(),
      tutoringExperienceMonths: chance(0.1) ? null : int(0, 240),
      verifications: { identity: verification(), dbs: verification(), qualification: verification() },
      subscriptionStatus: subscription(),
      languageIds: some(options.catalog.languageIds, 0, 2).sort((a, b) => a - b),
      location:
        all || !chance(0.1)
          ? { postcode: place.postcode, outcode: place.outcode, lat, lng, travelDistanceMiles: pick([0, 2, 5, 10, 15, 25, 40]) + (chance(0.3) ? round(rnd(), 2) : 0) }
          : null,
      teaches,
      schedule,
      holidays,
      rating: rating(),
    }
  }
}

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places

/** What the search eligibility rules see of a demo tutor. */
export const demoTutorSnapshot = (t: DemoTutor): TutorSnapshot => ({
  profile: { hasPicture: t.hasPicture, hasVideo: t.hasVideo, bio: t.bio, hasAddress: t.address !== null, hasMobile: t.hasMobile },
  verifications: t.verifications,
  subscriptionStatus: t.subscriptionStatus,
  isVisible: t.isVisible,
  schedule: t.schedule,
  holidays: t.holidays,
  location: t.location && { lat: t.location.lat, lng: t.location.lng, travelDistanceMiles: t.location.travelDistanceMiles },
})
