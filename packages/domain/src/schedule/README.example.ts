import { clockMinutesOf, DAY_NAMES, formatClockTime, holidaySchema, type WeeklyEntry, weeklyEntrySchema } from '@tutoring/domain/schedule'

// Entries read from outside (a file, a form): the schema checks what the types cannot.
const entries: unknown[] = JSON.parse(`[
  { "day": "TUESDAY", "slots": [{ "from": "16:00", "to": "24:00" }], "lessonTypes": ["online"], "bufferMinutes": 15 },
  { "day": "monday", "slots": [{ "from": "12:00", "to": "09:00" }], "lessonTypes": ["online"], "bufferMinutes": 0 }
]`)
const refused = weeklyEntrySchema.safeParse(entries[1])
if (!refused.success) console.log(refused.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('\n'))

// Windows are wall-clock HH:MM in the tutor's zone; 24:00 ends a window that runs to midnight.
const tuesday: WeeklyEntry = weeklyEntrySchema.parse(entries[0])
const minutes = tuesday.slots.map((slot) => clockMinutesOf(slot.to) - clockMinutesOf(slot.from))
console.log(`${tuesday.day} (day ${DAY_NAMES.indexOf(tuesday.day)}): ${minutes.join(', ')} minutes, until ${formatClockTime(24 * 60)}`)

// Holidays are inclusive dates, the end not before the start.
console.log(`inverted holiday accepted: ${holidaySchema.safeParse({ startDate: '2030-08-01', endDate: '2030-07-01' }).success}`)
