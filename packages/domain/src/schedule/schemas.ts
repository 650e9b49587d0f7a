import { z } from 'zod'
import { isoDateSchema, lessonTypeSchema } from '../shared'
import { parseClockTime } from './clock-time'
import { DAY_NAMES, type ScheduleSlot, type WeeklyEntry } from './day-schedule'
import type { Holiday } from './holiday'

const clockTimeSchema = z.string().refine((text) => parseClockTime(text) !== undefined, 'must be HH:MM from 00:00 to 24:00')
const bothBefore = (from: string, to: string): boolean => {
  const start = parseClockTime(from)
  const end = parseClockTime(to)
  // A malformed bound is already reported on its own field.
  return start === undefined || end === undefined || start < end
}
const referenceSchema = z.number().int().positive().nullable().optional()

/** A window of one weekday, `from` before `to` (an inverted window would give no slot at all). */
export const scheduleSlotSchema = z
  .object({ from: clockTimeSchema, to: clockTimeSchema })
  .refine((slot) => bothBefore(slot.from, slot.to), { message: 'from must be before to', path: ['to'] }) satisfies z.ZodType<ScheduleSlot>

export const weeklyEntrySchema = z.object({
  day: z.enum(DAY_NAMES),
  slots: z.array(scheduleSlotSchema),
  lessonTypes: z.array(lessonTypeSchema),
  bufferMinutes: z.number().int().nonnegative(),
  subjectId: referenceSchema,
  subjectLevelId: referenceSchema,
  examBoardId: referenceSchema,
}) satisfies z.ZodType<WeeklyEntry>

export const holidaySchema = z
  .object({ startDate: isoDateSchema, endDate: isoDateSchema })
  .refine((h) => h.endDate >= h.startDate, { message: 'must not be before startDate', path: ['endDate'] }) satisfies z.ZodType<Holiday>
