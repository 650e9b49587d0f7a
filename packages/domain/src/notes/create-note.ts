import { err, ok, ResultAsync } from 'neverthrow'
import { fieldError, forbidden, validationFailed, type Actor, type FieldErrors, type Forbidden, type ValidationFailed } from '../shared'
import { lessonEmailData, managementUrl, maySeeBooking, type LessonNote } from '../booking'
import type { NoteDraft, NotesDeps } from './ports'

/**
 * `POST /api/v1/notes`: the lesson's tutor writes a note (text, summary, their own files).
 * The student (the booker) gets the lesson-summary-note email and a push, through the outbox.
 */
export function createNote(
  deps: NotesDeps,
  actor: Actor,
  input: NoteDraft & { lessonId: number },
): ResultAsync<LessonNote, ValidationFailed | Forbidden> {
  return new ResultAsync(
    deps.uow.run(async (repos) => {
      const lesson = await repos.bookings.findByLessonId(input.lessonId)
      if (!lesson || !maySeeBooking(actor, lesson)) return err(fieldError('lesson_id', 'no such lesson'))
      if (lesson.lesson.tutorId !== actor.id) return err(forbidden('Only the tutor of the lesson writes its notes.'))
      const own = new Set(await repos.notes.ownFileIds(actor.id, input.fileIds))
      const errors: FieldErrors = {}
      input.fileIds.forEach((id, i) => {
        if (!own.has(id)) errors[`file_ids.${i}`] = ['is not one of your files']
      })
      if (Object.keys(errors).length > 0) return err(validationFailed(errors))
      const note = await repos.notes.insert(input.lessonId, actor.id, input)
      const student = lesson.booker
      await repos.outbox.enqueue({
        kind: 'email',
        template: 'lesson_summary_note',
        to: student.email,
        data: lessonEmailData(lesson, { firstname: student.firstname, summary: note.summary, noteId: note.id, manageUrl: managementUrl(deps.links, lesson, student, deps.clock.now()) }),
        dedupeKey: `lesson_summary_note:${note.id}`,
      })
      await repos.outbox.enqueue({
        kind: 'push',
        userId: student.id,
        title: `Notes on your ${lesson.subject.title} lesson`,
        body: note.summary.slice(0, 140),
        data: { booking_id: lesson.booking.id, lesson_id: lesson.lesson.id, note_id: note.id, start: lesson.lesson.start.toISOString() },
        dedupeKey: `push:lesson_summary_note:${note.id}`,
      })
      await repos.bookings.addEvent(lesson.booking.id, 'note_added', actor.id, { note_id: note.id })
      return ok(note)
    }),
  )
}
