import ical, { ICalEventStatus } from 'ical-generator'
import type { BookingAggregate } from '@tutoring/domain/booking'

export type CalendarEvent = { uid: string; title: string; start: string; finish: string; sequence: number; status: 'CONFIRMED' | 'CANCELLED'; ics: string }

/** A lesson's time changes only when both parties agree to a reschedule. */
const MOVED = 'reschedule_approved'

/**
 * One iCalendar (RFC 5545) event per lesson, so a client can offer "add to calendar" without
 * another call, and a calendar that already holds it can update it: the UID never changes,
 * SEQUENCE counts the changes (each approved reschedule, then the cancellation), DTSTAMP is
 * the time of the latest, and a cancelled lesson's event says STATUS:CANCELLED.
 * ical-generator writes the text (escaping, CRLF, lines folded at 75 octets).
 */
export function lessonCalendar(a: BookingAggregate): CalendarEvent[] {
  const cancelled = a.lesson.state === 'CANCELLED'
  const moves = a.events.filter((e) => e.kind === MOVED)
  // The cancellation is the last thing that happened to a cancelled lesson's booking.
  const changes = cancelled && a.events.length > 0 ? [...moves, a.events.at(-1)!] : moves
  const sequence = moves.length + (cancelled ? 1 : 0)
  // The timeline is in order: the latest change is the last one.
  const stamp = changes.at(-1)?.at ?? a.booking.createdAt
  const uid = `lesson-${a.lesson.id}@tutoring`
  const title = `${a.subject.title} lesson: ${a.tutor.firstname} ${a.tutor.lastname} and ${a.booker.firstname} ${a.booker.lastname}`
  const where = a.lesson.meetingUrl ?? (a.lesson.address ? `${a.lesson.address.line1}, ${a.lesson.address.city} ${a.lesson.address.postcode}` : null)
  const calendar = ical({ prodId: { company: 'Tutoring Marketplace', product: 'Lessons', language: 'EN' } })
  calendar.createEvent({
    id: uid,
    sequence,
    stamp,
    start: a.lesson.start,
    end: a.lesson.finish,
    summary: title,
    location: where,
    status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  })
  return [
    {
      uid,
      title,
      start: a.lesson.start.toISOString(),
      finish: a.lesson.finish.toISOString(),
      sequence,
      status: cancelled ? 'CANCELLED' : 'CONFIRMED',
      ics: calendar.toString(),
    },
  ]
}
