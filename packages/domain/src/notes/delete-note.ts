import { err, ok, ResultAsync } from 'neverthrow'
import type { Actor, Forbidden, NotFound } from '../shared'
import { mayEditNote, visibleNote } from './note-access'
import type { NotesDeps } from './ports'

/** `DELETE /api/v1/notes/{id}`: its tutor removes it (the files stay theirs). */
export function deleteNote(deps: Pick<NotesDeps, 'uow'>, actor: Actor, id: number): ResultAsync<void, NotFound | Forbidden> {
  return new ResultAsync(
    deps.uow.run(async (repos) => {
      const found = await visibleNote(repos, actor, id)
      if (found.isErr()) return err(found.error)
      const allowed = mayEditNote(actor, found.value.note)
      if (allowed.isErr()) return err(allowed.error)
      await repos.notes.delete(id)
      return ok(undefined)
    }),
  )
}
