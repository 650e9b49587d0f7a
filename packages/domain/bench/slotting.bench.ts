/**
 * Issue 3's benchmark: one day and the whole 14-day window for a tutor with a 7-day schedule
 * of three windows a day and 150 booked lessons. Aim: median < 50 µs and < 1 ms.
 * Run with `pnpm bench`. The scenario is built here, not from testkit: domain code (this
 * file included) may not import another workspace package.
 */
import { computeAvailability, DAY_NAMES, type AvailabilityInput, type BookedLesson, type WeeklyEntry } from '../src'

const MINUTE = 60_000
const DAY = 1_440 * MINUTE

const schedule: WeeklyEntry[] = DAY_NAMES.map((day) => ({
  day,
  slots: [
    { from: '08:00', to: '11:00' },
    { from: '12:00', to: '15:00' },
    { from: '16:00', to: '20:00' },
  ],
  lessonTypes: ['online', 'tutors_home', 'students_home'],
  bufferMinutes: 15,
}))

// A summer week, so London is at +01:00 and the client asks in the same offset.
const now = new Date('2026-06-01T06:30:00Z')
const firstMidnight = Date.UTC(2026, 5, 1) - 60 * MINUTE

/** A fixed-seed generator, so that every run measures the same scenario. */
const random = (() => {
  let seed = 20_260_601
  return (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
    return seed / 2_147_483_648
  }
})()

/**
 * 150 lessons over the 14 days, about eleven a day, 30 or 60 minutes at quarter hours between
 * 07:00 and 21:00 London time (some from older schedules, outside today's windows); every third
 * one in person with travel times. Busy, but with free slots left between them.
 */
const lessons: BookedLesson[] = Array.from({ length: 150 }, (_, i) => {
  const day = i % 14
  const start = firstMidnight + day * DAY + (7 * 60 + Math.floor(random() * 56) * 15) * MINUTE
  const inPerson = i % 3 === 0
  return {
    start: new Date(start),
    finish: new Date(start + (random() < 0.5 ? 30 : 60) * MINUTE),
    inPerson,
    travelBeforeMinutes: inPerson ? 20 : undefined,
    travelAfterMinutes: inPerson ? 25 : undefined,
  }
})

const base: Omit<AvailabilityInput, 'request'> = {
  schedule,
  lessons,
  holidays: [{ startDate: '2026-06-20', endDate: '2026-06-21' }],
  busy: [{ start: new Date('2026-06-03T12:00:00Z'), end: new Date('2026-06-03T13:30:00Z') }],
  withinTravelDistance: true,
  now,
}
const oneDay = (lessonType: 'online' | 'tutors_home'): AvailabilityInput => ({
  ...base,
  request: { date: '2026-06-05', durationMinutes: 60, lessonType, utcOffsetMinutes: 60 },
})
const window = (lessonType: 'online' | 'tutors_home'): AvailabilityInput => ({
  ...base,
  request: { durationMinutes: 60, lessonType, utcOffsetMinutes: 60 },
})

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0

/** Times each call alone (hrtime costs well under a microsecond) and reports median and p95. */
const measure = (name: string, input: AvailabilityInput, samples: number): void => {
  let slots = 0
  for (let i = 0; i < 2_000; i++) slots = computeAvailability(input).availabilities.reduce((n, d) => n + d.times.length, 0)
  const times: number[] = []
  for (let i = 0; i < samples; i++) {
    const started = process.hrtime.bigint()
    computeAvailability(input)
    times.push(Number(process.hrtime.bigint() - started) / 1_000)
  }
  times.sort((a, b) => a - b)
  const fmt = (us: number) => `${us.toFixed(1)} µs`
  console.log(
    `${name.padEnd(22)} median ${fmt(percentile(times, 0.5)).padStart(10)}  p95 ${fmt(percentile(times, 0.95)).padStart(10)}  (${samples} runs, ${slots} slots)`,
  )
}

console.log('availability slotting: 7-day schedule, 3 windows a day, 150 booked lessons')
measure('one day, online', oneDay('online'), 20_000)
measure('one day, in person', oneDay('tutors_home'), 20_000)
measure('14 days, online', window('online'), 5_000)
measure('14 days, in person', window('tutors_home'), 5_000)
