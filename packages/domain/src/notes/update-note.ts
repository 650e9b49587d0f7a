import { err, ok, ResultAsync } from 'neverthrow'
import { validationFailed, type Actor, type FieldErrors, type Forbidden, type NotFound, type ValidationFailed } from '../shared'
import type { LessonNote } from '../booking'
import { mayEditNote, visibleNote } from './note-access'
import type { NoteDraft, NotesDeps } from './ports'

/** `PUT /api/v1/notes/{id}`: its tutor replaces text, summary and files (others who see it: 403). */
export function updateNote(
  deps: Pick<NotesDeps, 'uow'>,
  actor: Actor,
  input: { id: number; patch: Partial<NoteDraft> },
): ResultAsync<LessonNote, NotFound | Forbidden | ValidationFailed> {
  return new ResultAsync(
    deps.uow.run(async (repos) => {
      const found = await visibleNote(repos, actor, input.id)
      if (found.isErr()) return err(found.error)
      const { note } = found.value
      const allowed = mayEditNote(actor, note)
      if (allowed.isErr()) return err(allowed.error)
      const draft: NoteDraft = { text: input.patch.text ?? note.text, summary: input.patch.summary ?? note.summary, fileIds: input.patch.fileIds ?? note.fileIds }
      const own = new Set(await repos.notes.ownFileIds(actor.id, draft.fileIds))
      const errors: FieldErrors = {}
      draft.fileIds.forEach((id, i) => {
        if (!own.has(id) && !note.fileIds.includes(id)) errors[`file_ids.${i}`] = ['is not one of your files']
      })
      if (Object.keys(errors).length > 0) return err(validationFailed(errors))
      return ok(await repos.notes.update(note.id, draft))
    }),
  )
}
