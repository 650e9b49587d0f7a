// What another team writes against the installed tarballs; run.sh typechecks it under NodeNext
// and Bundler resolution, then runs it with node.
import fc from 'fast-check'
import { computeAvailability, InvalidInput, lessonPriceBreakdown, searchEligibility, type TutorSnapshot, type WeeklyEntry } from '@tutoring/domain'
import { createBooking } from '@tutoring/domain/booking'
import { arbAvailabilityScenario, arbTimeZone, arbWeeklySchedule, slotInstants } from '@tutoring/testkit'
import { createTutoringClient, idempotencyKey, type Problem } from '@tutoring/client'

const monday: WeeklyEntry = { day: 'MONDAY', slots: [{ from: '09:00', to: '12:00' }], lessonTypes: ['online'], bufferMinutes: 0 }
const now = new Date('2030-01-07T07:00:00Z')

// Slots with the domain.
const { availabilities } = computeAvailability({ schedule: [monday], now, request: { date: '2030-01-07', durationMinutes: 60 } })
console.log(`slots: ${availabilities[0]?.times.map((t) => t.start).join(' ')}`)

// Search eligibility.
const tutor: TutorSnapshot = {
  profile: { hasPicture: true, hasVideo: true, bio: 'Maths', hasAddress: true, hasMobile: true },
  verifications: { identity: 'PASS', dbs: 'PASS', qualification: 'PENDING' },
  subscriptionStatus: 'active',
  isVisible: true,
  schedule: [monday],
  holidays: [],
  location: null,
}
const eligibility = searchEligibility(tutor, { today: '2030-01-07' })
console.log(`eligibility: ${eligibility.eligible ? 'eligible' : eligibility.reasons.join(',')}`)

// A price.
console.log(`price: ${lessonPriceBreakdown({ hourlyRatePence: 3000, durationMinutes: 90 }).total}`)

// A plain-JS mistake is an error, not zero slots.
try {
  computeAvailability(JSON.parse('{"schedule":[{"day":"monday","slots":[],"lessonTypes":[],"bufferMinutes":0}],"request":{}}'))
} catch (error) {
  console.log(`invalid input: ${error instanceof InvalidInput}`)
}

// Properties with the testkit's arbitraries, on the consumer's own fast-check.
fc.assert(
  fc.property(arbAvailabilityScenario(), (s) =>
    slotInstants(computeAvailability(s), s.request.utcOffsetMinutes, s.request.durationMinutes).every((slot) => slot.start > s.now.getTime()),
  ),
  { numRuns: 25 },
)
// Whatever the schedule and the tutor's zone, a holiday around the asked date leaves no slot on it.
const schedules: fc.Arbitrary<WeeklyEntry[]> = arbWeeklySchedule()
fc.assert(
  fc.property(schedules, arbTimeZone(), (schedule, timeZone) => {
    const holidays = [{ startDate: '2030-01-07', endDate: '2030-01-09' }]
    const answer = computeAvailability({ schedule, timeZone, holidays, now, request: { date: '2030-01-08', durationMinutes: 30 } })
    return answer.availabilities.every((day) => day.times.length === 0)
  }),
  { numRuns: 25 },
)
console.log('property: passed')

// The client, typed by the document (compiled; calling it needs a server).
const client = createTutoringClient({ baseUrl: 'http://127.0.0.1:9' })
const book = (teachId: number, levelId: number) =>
  client.POST('/api/bookings', {
    params: idempotencyKey(),
    body: { teach_id: teachId, subject_level_id: levelId, lesson_type: 3, start: '2030-01-07T09:00:00Z', finish: '2030-01-07T10:00:00Z' },
  })
// A search's query typed as the server reads it: integers, a repeated name, enums.
const search = (page: number) =>
  client.GET('/api/v1/search', { params: { query: { subject_id: 1, 'subject_level_ids[]': [2, 3], 'filters[lesson_type]': 'online', sort: 'price_asc', page, per_page: 100 } } })
const codeOf = (problem: Problem | undefined): string => problem?.code ?? 'none'
console.log(`client: ${typeof book} ${codeOf(undefined)} ${typeof createBooking} ${typeof search}`)
