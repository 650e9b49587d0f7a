import { computeAvailability, type AvailabilityInput } from '@tutoring/domain/availability'
import { InvalidInput } from '@tutoring/domain/shared'

// A tutor in London teaching online on Monday mornings, with one lesson booked at 10:00.
const input: AvailabilityInput = {
  schedule: [{ day: 'MONDAY', slots: [{ from: '09:00', to: '12:00' }], lessonTypes: ['online'], bufferMinutes: 0 }],
  timeZone: 'Europe/London',
  lessons: [{ start: new Date('2030-01-07T10:00:00Z'), finish: new Date('2030-01-07T11:00:00Z'), inPerson: false }],
  request: { date: '2030-01-07', durationMinutes: 60, lessonType: 'online' },
  now: new Date('2030-01-06T12:00:00Z'),
}
const [monday] = computeAvailability(input).availabilities
console.log(`${monday?.date} ${monday?.lessonTypes.join(',')}: ${monday?.times.map((t) => `${t.start}-${t.end}`).join(' ')}`)

// The client's clock relabels the same slots: UTC-5 sees them five hours earlier.
const newYork = computeAvailability({ ...input, request: { ...input.request, utcOffsetMinutes: -300 } }).availabilities
console.log(`at UTC-5: ${newYork.flatMap((day) => day.times.map((t) => `${day.date} ${t.start}`)).join(' ')}`)

// A holiday over that Monday leaves no slot.
const onHoliday = computeAvailability({ ...input, holidays: [{ startDate: '2030-01-07', endDate: '2030-01-07' }] })
console.log(`on holiday: ${onHoliday.availabilities[0]?.times.length} slots`)

// Input the types would refuse (plain JavaScript, a file) is an error, never zero slots.
try {
  computeAvailability({ ...input, request: { durationMinutes: 10 } })
} catch (error) {
  if (error instanceof InvalidInput) console.log(`invalid: ${error.issues.map((issue) => issue.path.join('.')).join(', ')}`)
}
