/**
 * CONTRACT §15: no answer depends on a tutor's coordinates finer than the public point. Homes
 * behind one public point (one anywhere in its cell, its mirror image across the point, another
 * in the cell), a random travel radius, in-person lessons booked around, and a student about
 * that radius away: the availability loaded for a question (the travel verdict and every
 * travel time) and booking's slot check answer alike for all three homes, so no sequence of
 * answers tells them apart; and a student mirrored across the public point is told what the
 * student is. Search's rule 6 has the same property beside it (search/eligibility.test.ts).
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { arbHomesBehindOnePoint, arbPointAround, exactTravel, mirroredEastWest } from '@tutoring/testkit'
import { DAY_NAMES, type DaySchedule } from '../schedule'
import { LESSON_TYPES, type GeoPoint, type IsoDate, type LessonTypeName } from '../shared'
import { checkSlot } from './check-slot'
import { computeAvailability } from './compute-availability'
import { availabilityInputOf, loadWindow } from './load-availability-input'
import type { BookableTeach, TutorLesson, TutorSlotFacts } from './ports'

const RUNS = { numRuns: 300 }
const NOW = new Date('2026-06-01T07:00:00Z')
const DATE: IsoDate = '2026-06-02'
const HOUR = 3_600_000
const deps = { clock: { now: () => NOW }, travel: exactTravel, calendar: { busyBetween: async () => [] } }

const bookable: BookableTeach = {
  teach: { id: 1, tutorId: 1, subjectId: 1, subjectLevelIds: [1], examBoardIds: [], hourlyRatePence: 2500, enabled: true, createdAt: NOW },
  tutor: { verifications: { identity: 'PASS', dbs: 'PASS', qualification: 'PASS' }, subscriptionStatus: 'trialing' },
  timeZone: 'Europe/London',
  calendarFeedUrl: null,
}
const schedule: DaySchedule[] = DAY_NAMES.map((day, i) => ({
  id: i + 1,
  tutorId: 1,
  day,
  slots: [{ from: '08:00', to: '20:00' }],
  lessonTypes: [...LESSON_TYPES],
  bufferMinutes: 0,
  subjectId: null,
  subjectLevelId: null,
  examBoardId: null,
}))

type Scenario = { point: GeoPoint; homes: GeoPoint[]; miles: number; student: GeoPoint; lessons: TutorLesson[]; lessonType: LessonTypeName; slotHour: number }

const arbScenario: fc.Arbitrary<Scenario> = arbHomesBehindOnePoint().chain(({ point, homes }) =>
  fc.integer({ min: 50, max: 4000 }).map((n) => n / 100).chain((miles) =>
    fc.record({
      point: fc.constant(point),
      homes: fc.constant(homes),
      miles: fc.constant(miles),
      student: arbPointAround(point, miles),
      lessons: fc.array(
        fc.record({ hour: fc.integer({ min: 8, max: 18 }), lessonType: fc.constantFrom<LessonTypeName>('tutors_home', 'students_home'), place: arbPointAround(point, miles) }),
        { maxLength: 4 },
      ).map((booked) =>
        booked.map(({ hour, lessonType, place }, i): TutorLesson => {
          const start = Date.parse(`${DATE}T00:00:00Z`) + hour * HOUR
          return { id: i + 1, start: new Date(start), finish: new Date(start + HOUR), lessonType, addressPoint: lessonType === 'students_home' ? place : null }
        }),
      ),
      lessonType: fc.constantFrom(...LESSON_TYPES),
      slotHour: fc.integer({ min: 8, max: 18 }),
    }),
  ),
)

const factsAt = (home: GeoPoint, s: Scenario): TutorSlotFacts => ({
  schedule,
  holidays: [],
  location: { id: 1, tutorId: 1, postcode: 'SW1A 1AA', outcode: 'SW1A', lat: home.lat, lng: home.lng, travelDistanceMiles: s.miles },
  lessons: s.lessons,
})

/** What availability loads for the question, as `getAvailability` asks it. */
const loaded = (home: GeoPoint, s: Scenario, student = s.student) =>
  availabilityInputOf(
    deps,
    { bookable, facts: factsAt(home, s), window: loadWindow(deps, DATE) },
    { request: { date: DATE, durationMinutes: 60, lessonType: s.lessonType, utcOffsetMinutes: 0 }, date: DATE, studentPoint: student },
  )

/** Booking's question: whether this one hour is free, read through the slot facts of `home`. */
const slotFree = async (home: GeoPoint, s: Scenario): Promise<boolean> => {
  const facts = factsAt(home, s)
  const repos = { slotFacts: { forTutor: async () => facts, forTeach: async () => ({ ...bookable, facts }) } }
  const start = new Date(Date.parse(`${DATE}T00:00:00Z`) + s.slotHour * HOUR)
  const slot = { teach: bookable, start, finish: new Date(start.getTime() + HOUR), lessonType: s.lessonType, subjectLevelId: 1, examBoardId: null, studentPoint: s.student }
  return (await checkSlot(deps, repos, slot)).isOk()
}

describe('a tutor’s home behind its public point', () => {
  it('answers availability and booking alike for every home behind one public point', async () => {
    await fc.assert(
      fc.asyncProperty(arbScenario, async (s) => {
        const [first, ...others] = s.homes as [GeoPoint, ...GeoPoint[]]
        const input = await loaded(first, s)
        const free = await slotFree(first, s)
        for (const home of others) {
          expect(await loaded(home, s)).toEqual(input)
          expect(await slotFree(home, s)).toBe(free)
        }
        // The loaded input is the whole question: equal inputs give equal answers.
        expect(computeAvailability(input).availabilities.length).toBeGreaterThan(0)
      }),
      RUNS,
    )
  })

  it('tells a student and their mirror image across the public point the same', async () => {
    await fc.assert(
      fc.asyncProperty(arbScenario, async (s) => {
        const home = s.homes[0]!
        const mirror = mirroredEastWest(s.student, s.point)
        const alone = { ...s, lessons: [] }
        expect((await loaded(home, alone, mirror)).withinTravelDistance).toBe((await loaded(home, alone)).withinTravelDistance)
      }),
      RUNS,
    )
  })
})
