import { ok } from 'neverthrow'
import { LONDON } from '../shared'
import type { BookingDeps, ReminderCandidate } from './ports'
import { dueReminderOffset, leadTime, wallClockIn } from './reminders'
import { lessonEmailData, managementUrl } from './settlement'

/**
 * Lesson reminders (CONTRACT §16): each committed lesson reminds its booker (the student, or
 * the parent who booked) and its tutor by email and push at each offset of
 * `config.reminderOffsetsMinutes` before its start, the time in each one's zone, with the
 * booking's management link. A lesson moved by an approved reschedule is reminded at its new
 * start (the record is keyed by start); a cancelled one is not listed. Each reminder is
 * recorded under a unique key in the same transaction as its messages, so instances running
 * this together send it once. Answers how many reminders (lesson and offset) went out.
 */
export async function sendDueReminders(deps: Pick<BookingDeps, 'uow' | 'clock' | 'links' | 'config'>): Promise<{ sent: number }> {
  const offsets = [...new Set(deps.config.reminderOffsetsMinutes)]
  if (offsets.length === 0) return { sent: 0 }
  const now = deps.clock.now()
  const candidates = await deps.uow.repos.reminders.listCandidates(now, Math.max(...offsets))
  let sent = 0
  for (const candidate of candidates) {
    const offset = dueReminderOffset(candidate, offsets, now)
    if (offset !== null && (await remind(deps, candidate, offset, now))) sent++
  }
  return { sent }
}

async function remind(deps: Pick<BookingDeps, 'uow' | 'links'>, candidate: ReminderCandidate, offset: number, now: Date): Promise<boolean> {
  const done = await deps.uow.run(async (repos) => {
    // Locked and read fresh: a cancel or a reschedule committed since the listing wins.
    const a = await repos.bookings.lockById(candidate.bookingId)
    if (!a || a.lesson.state === 'CANCELLED' || a.lesson.start.getTime() !== candidate.start.getTime()) return ok(false)
    if (!(await repos.reminders.record(a.lesson.id, a.lesson.start, offset, now))) return ok(false)
    for (const person of [a.booker, a.tutor]) {
      const timeZone = candidate.timeZones.get(person.id) ?? LONDON
      const startLocal = wallClockIn(a.lesson.start, timeZone)
      const key = `lesson_reminder:${a.lesson.id}:${a.lesson.start.getTime()}:${offset}:${person.id}`
      const manageUrl = managementUrl(deps.links, a, person)
      await repos.outbox.enqueue({
        kind: 'email',
        template: 'lesson_reminder',
        to: person.email,
        data: lessonEmailData(a, { firstname: person.firstname, offsetMinutes: offset, leadTime: leadTime(offset), startLocal, timeZone, manageUrl }),
        dedupeKey: key,
      })
      await repos.outbox.enqueue({
        kind: 'push',
        userId: person.id,
        title: `${a.subject.title} lesson ${leadTime(offset)}`,
        body: `${a.subject.title} with ${person.id === a.tutor.id ? `${a.booker.firstname} ${a.booker.lastname}` : `${a.tutor.firstname} ${a.tutor.lastname}`}: ${startLocal} (${timeZone})`,
        data: { type: 'lesson_reminder', booking_id: a.booking.id, lesson_id: a.lesson.id, offset_minutes: offset, start: a.lesson.start.toISOString() },
        dedupeKey: `${key}:push`,
      })
    }
    return ok(true)
  })
  return done._unsafeUnwrap()
}
