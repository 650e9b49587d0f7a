import { ok } from 'neverthrow'
import { MINUTE_MS } from '../shared'
import { announceBooking } from './integration-events'
import type { BookingDeps, HoursTaughtChange } from './ports'

/** Hours taught (CONTRACT §14, §17): a lesson counts once its finish has passed, unless it is cancelled. */
export const countsAsTaught = (lesson: Pick<HoursTaughtChange, 'state' | 'finish'>, now: Date): boolean =>
  lesson.state !== 'CANCELLED' && lesson.finish.getTime() <= now.getTime()

/** A lesson's length in whole minutes, as hours taught add lessons up. */
const minutesOf = (lesson: Pick<HoursTaughtChange, 'start' | 'finish'>): number => Math.round((lesson.finish.getTime() - lesson.start.getTime()) / MINUTE_MS)

/**
 * Keeps each tutor's hours taught current, so that showing them never sums a tutor's whole
 * history. A lesson is counted when its finish passes, not when its payment is captured: a
 * payment may be captured before the lesson (an immediate capture) or retried long after it,
 * and hours taught are about lessons held, not money. A counted lesson cancelled afterwards
 * (staff refunding a lesson that did not happen) is taken back. One batch of at most `limit`
 * lessons, claimed with SKIP LOCKED, so instances may run it together.
 */
export async function countHoursTaught(deps: Pick<BookingDeps, 'uow' | 'clock'>, limit = 500): Promise<{ counted: number; withdrawn: number }> {
  const done = await deps.uow.run(async (repos) => {
    const now = deps.clock.now()
    const changes = await repos.bookings.claimHoursTaughtChanges(now, limit)
    const counted = changes.filter((lesson) => !lesson.counted && countsAsTaught(lesson, now))
    const withdrawn = changes.filter((lesson) => lesson.counted && lesson.state === 'CANCELLED')
    const minutesByTutor = new Map<number, number>()
    const add = (lesson: HoursTaughtChange, sign: 1 | -1) => minutesByTutor.set(lesson.tutorId, (minutesByTutor.get(lesson.tutorId) ?? 0) + sign * minutesOf(lesson))
    counted.forEach((lesson) => add(lesson, 1))
    withdrawn.forEach((lesson) => add(lesson, -1))
    await repos.bookings.markTaught(counted.map((lesson) => lesson.id), now)
    await repos.bookings.markTaught(withdrawn.map((lesson) => lesson.id), null)
    for (const [tutorId, minutes] of minutesByTutor) if (minutes !== 0) await repos.bookings.addMinutesTaught(tutorId, minutes)
    // Counted once each (the claim skips a counted lesson), so a lesson is completed once for integrators too.
    for (const lesson of counted) {
      const a = await repos.bookings.findByLessonId(lesson.id)
      if (a) await announceBooking(repos, 'lesson.completed', a, now)
    }
    return ok({ counted: counted.length, withdrawn: withdrawn.length })
  })
  return done._unsafeUnwrap()
}
