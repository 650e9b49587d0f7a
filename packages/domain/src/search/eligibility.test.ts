import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { anEligibleTutor, arbHomesBehindOnePoint, arbPointAround, arbSearchQuery, arbTutorSnapshot, mirroredEastWest } from '@tutoring/testkit'
import { ELIGIBILITY_RULE_OF, searchEligibility, type SearchQuery, type TutorSnapshot } from './eligibility'
import { distanceMiles, LESSON_TYPES } from '../shared'
import { DAY_NAMES } from '../schedule'

const today = '2026-06-01' // a Monday
const query: SearchQuery = { today }
const reasonsOf = (tutor: TutorSnapshot, q: SearchQuery = query): string[] => {
  const result = searchEligibility(tutor, q)
  return result.eligible ? [] : result.reasons
}
const westminster = { lat: 51.4995, lng: -0.1248 }
const oxford = { lat: 51.752, lng: -1.2577 }

describe('search eligibility', () => {
  it('finds a complete, verified, visible, available tutor eligible', () => {
    expect(searchEligibility(anEligibleTutor(), query)).toEqual({ eligible: true })
  })

  it('names each missing part of the profile (rule 1)', () => {
    const tutor = anEligibleTutor({ profile: { hasPicture: false, hasVideo: false, bio: '  ', hasAddress: false, hasMobile: false } })
    expect(reasonsOf(tutor)).toEqual(['profile_picture_missing', 'profile_video_missing', 'bio_missing', 'address_missing', 'mobile_missing'])
    expect(reasonsOf(anEligibleTutor({ profile: { ...anEligibleTutor().profile, bio: null } }))).toEqual(['bio_missing'])
  })

  it('names each verification not passed (rule 2)', () => {
    const tutor = anEligibleTutor({ verifications: { identity: 'PENDING', dbs: 'FAIL', qualification: 'NONE' } })
    expect(reasonsOf(tutor)).toEqual(['identity_not_passed', 'dbs_not_passed', 'qualification_not_passed'])
    expect(reasonsOf(anEligibleTutor({ verifications: { identity: 'PASS', dbs: 'INTERNAL_REVIEW', qualification: 'PASS' } }))).toEqual([
      'dbs_not_passed',
    ])
  })

  it('hides a tutor who is not visible (rule 3)', () => {
    expect(reasonsOf(anEligibleTutor({ isVisible: false }))).toEqual(['not_visible'])
  })

  it('needs schedule on the requested weekday, for the requested lesson type (rule 4)', () => {
    const tutor = anEligibleTutor()
    expect(reasonsOf(tutor, { today, date: '2026-06-08' })).toEqual([])
    expect(reasonsOf(tutor, { today, date: '2026-06-09' })).toEqual(['no_availability'])
    const onlineOnly = anEligibleTutor({ schedule: [{ ...tutor.schedule[0]!, lessonTypes: ['online'] }] })
    expect(reasonsOf(onlineOnly, { today, lessonType: 'tutors_home' })).toEqual(['no_availability'])
    expect(reasonsOf(anEligibleTutor({ schedule: [] }))).toEqual(['no_availability'])
  })

  it('hides a tutor on holiday on the requested date, or today without one (rule 5)', () => {
    const tutor = anEligibleTutor({ holidays: [{ startDate: '2026-06-01', endDate: '2026-06-08' }] })
    expect(reasonsOf(tutor)).toEqual(['on_holiday'])
    expect(reasonsOf(tutor, { today, date: '2026-06-08' })).toEqual(['on_holiday'])
    expect(reasonsOf(tutor, { today, date: '2026-06-15' })).toEqual([])
  })

  it('hides a tutor too far for an in-person lesson, but not for an online one (rule 6)', () => {
    const tutor = anEligibleTutor()
    expect(reasonsOf(tutor, { today, lessonType: 'students_home', studentLocation: westminster })).toEqual([])
    expect(reasonsOf(tutor, { today, lessonType: 'students_home', studentLocation: oxford })).toEqual(['out_of_travel_distance'])
    expect(reasonsOf(tutor, { today, lessonType: 'tutors_home', studentLocation: oxford })).toEqual(['out_of_travel_distance'])
    expect(reasonsOf(tutor, { today, lessonType: 'online', studentLocation: oxford })).toEqual([])
    expect(reasonsOf(anEligibleTutor({ location: null }), { today, lessonType: 'tutors_home', studentLocation: westminster })).toEqual([
      'out_of_travel_distance',
    ])
  })

  it('takes dates from today through today + 14 only (rule 7)', () => {
    const everyDay = anEligibleTutor({ schedule: DAY_NAMES.map((day) => ({ ...anEligibleTutor().schedule[0]!, day })) })
    expect(reasonsOf(everyDay, { today, date: '2026-06-01' })).toEqual([])
    expect(reasonsOf(everyDay, { today, date: '2026-06-15' })).toEqual([])
    expect(reasonsOf(everyDay, { today, date: '2026-06-16' })).toEqual(['date_outside_window'])
    expect(reasonsOf(everyDay, { today, date: '2026-05-31' })).toEqual(['date_outside_window'])
  })

  it('hides a tutor whose subscription is neither trialing nor active, or who has none (rule 8)', () => {
    expect(reasonsOf(anEligibleTutor({ subscriptionStatus: 'active' }))).toEqual([])
    for (const status of ['canceled', 'incomplete', 'incomplete_expired', null] as const) {
      expect(reasonsOf(anEligibleTutor({ subscriptionStatus: status })), String(status)).toEqual(['subscription_inactive'])
    }
  })

  it('measures distances in miles', () => {
    // London to Paris is 343.5 km on the great circle.
    expect(distanceMiles({ lat: 51.5074, lng: -0.1278 }, { lat: 48.8566, lng: 2.3522 }) * 1.609344).toBeCloseTo(343.5, 0)
    expect(distanceMiles(oxford, oxford)).toBe(0)
  })
})

// An independent reading of the eight rules: other date and distance arithmetic than the code's.
const cosineMiles = (a: { lat: number; lng: number }, b: { lat: number; lng: number }): number => {
  const r = Math.PI / 180
  const c = Math.sin(a.lat * r) * Math.sin(b.lat * r) + Math.cos(a.lat * r) * Math.cos(b.lat * r) * Math.cos((b.lng - a.lng) * r)
  return 3958.8 * Math.acos(Math.min(1, Math.max(-1, c)))
}

/** What the public may know of a place: two decimal places, half up. */
const twoPlaces = (p: { lat: number; lng: number }) => ({ lat: Math.round(p.lat * 100) / 100, lng: Math.round(p.lng * 100) / 100 })

const rulesHeld = (t: TutorSnapshot, q: SearchQuery): boolean[] => {
  const date = q.date ?? q.today
  const weekday = q.date === undefined ? undefined : DAY_NAMES[new Date(`${q.date}T12:00:00Z`).getUTCDay()]
  const inPerson = q.lessonType === 'tutors_home' || q.lessonType === 'students_home'
  const days = (Date.parse(date) - Date.parse(q.today)) / 86_400_000
  return [
    t.profile.hasPicture && t.profile.hasVideo && !!t.profile.bio?.trim() && t.profile.hasAddress && t.profile.hasMobile,
    Object.values(t.verifications).every((s) => s === 'PASS'),
    t.isVisible,
    t.schedule.some((e) => (!weekday || e.day === weekday) && e.slots.length > 0 && (!q.lessonType || e.lessonTypes.includes(q.lessonType))),
    !t.holidays.some((h) => Date.parse(h.startDate) <= Date.parse(date) && Date.parse(date) <= Date.parse(h.endDate)),
    !inPerson || !q.studentLocation || (t.location !== null && cosineMiles(twoPlaces(t.location), q.studentLocation) <= t.location.travelDistanceMiles),
    q.date === undefined || (days >= 0 && days <= 14),
    t.subscriptionStatus === 'trialing' || t.subscriptionStatus === 'active',
  ]
}

describe('search eligibility, as a property', () => {
  it('says eligible exactly when all eight rules hold, and names exactly the rules that fail', () => {
    fc.assert(
      fc.property(arbTutorSnapshot(), arbSearchQuery(), (tutor, q) => {
        if (tutor.location && q.studentLocation) {
          // Two formulas may round differently on the very edge of the travel distance.
          fc.pre(Math.abs(cosineMiles(twoPlaces(tutor.location), q.studentLocation) - tutor.location.travelDistanceMiles) > 1e-6)
        }
        const held = rulesHeld(tutor, q)
        const result = searchEligibility(tutor, q)
        expect(result.eligible).toBe(held.every(Boolean))
        const failedRules = new Set(result.eligible ? [] : result.reasons.map((r) => ELIGIBILITY_RULE_OF[r]))
        expect([...failedRules].sort()).toEqual(held.flatMap((ok, i) => (ok ? [] : [i + 1])))
      }),
      { numRuns: 1000 },
    )
  })
})

describe('rule 6 and a tutor\'s home', () => {
  /**
   * CONTRACT §15: homes behind one public point (one in its cell, its mirror image across the
   * point, another), a student about the travel radius away, and that student's mirror image
   * across the point: the answers are the same, so no walk of searches narrows the home.
   */
  it('answers alike for every home behind one public point, and for a student mirrored across it', () => {
    const scenario = arbHomesBehindOnePoint().chain(({ point, homes }) =>
      fc.integer({ min: 50, max: 4000 }).chain((hundredths) =>
        fc.record({ student: arbPointAround(point, hundredths / 100), lessonType: fc.constantFrom(...LESSON_TYPES) }).map((r) => ({ ...r, point, homes, miles: hundredths / 100 })),
      ),
    )
    fc.assert(
      fc.property(scenario, ({ point, homes, miles, student, lessonType }) => {
        const answer = (home: { lat: number; lng: number }, studentLocation = student) =>
          searchEligibility(anEligibleTutor({ location: { ...home, travelDistanceMiles: miles } }), { today, lessonType, studentLocation })
        for (const home of homes) expect(answer(home)).toEqual(answer(homes[0]))
        expect(answer(homes[0], mirroredEastWest(student, point))).toEqual(answer(homes[0]))
      }),
      { numRuns: 1000 },
    )
  })
})
