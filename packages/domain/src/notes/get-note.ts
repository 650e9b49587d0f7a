import { ResultAsync } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import type { LessonNote } from '../booking'
import { visibleNote } from './note-access'
import type { NotesDeps } from './ports'

/** `GET /api/v1/notes/{id}`: whoever sees the lesson; anyone else 404. */
export function getNote(deps: Pick<NotesDeps, 'uow'>, actor: Actor, id: number): ResultAsync<LessonNote, NotFound> {
  return new ResultAsync(visibleNote(deps.uow.repos, actor, id)).map((found) => found.note)
}
