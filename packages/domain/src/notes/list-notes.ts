import { ResultAsync } from 'neverthrow'
import { isInternal, type Actor, type PageOf, type PageRequest } from '../shared'
import type { LessonNote } from '../booking'
import type { NotesDeps } from './ports'

/** `GET /api/v1/notes`: staff see all; others the notes of lessons they are a party to. */
export function listNotes(deps: Pick<NotesDeps, 'uow'>, actor: Actor, page: PageRequest): ResultAsync<PageOf<LessonNote>, never> {
  return ResultAsync.fromSafePromise(deps.uow.repos.notes.list(isInternal(actor.roleId) ? {} : { partyId: actor.id }, page))
}
