import { err, ok, type Result } from 'neverthrow'
import { forbidden, notFound, type Actor, type Forbidden, type NotFound, type WithoutLocks } from '../shared'
import { maySeeBooking, type BookingAggregate, type LessonNote } from '../booking'
import type { NotesRepos } from './ports'

/** A note is seen by whoever sees its lesson; only the tutor who wrote it changes it. */
export async function visibleNote(repos: WithoutLocks<NotesRepos>, actor: Actor, id: number): Promise<Result<{ note: LessonNote; lesson: BookingAggregate }, NotFound>> {
  const note = await repos.notes.findById(id)
  const lesson = note ? await repos.bookings.findByLessonId(note.lessonId) : undefined
  return note && lesson && maySeeBooking(actor, lesson) ? ok({ note, lesson }) : err(notFound('note'))
}

export const mayEditNote = (actor: Actor, note: LessonNote): Result<void, Forbidden> =>
  note.authorId === actor.id ? ok(undefined) : err(forbidden("Only the tutor who wrote a note changes it."))
