import type { BookingDeps, BookingRepos, LessonNote } from '../booking'
import type { PageOf, PageRequest, UnitOfWork } from '../shared'

export type NoteDraft = { text: string; summary: string; fileIds: string[] }

export interface NoteRepository {
  findById(id: number): Promise<LessonNote | undefined>
  list(filter: { partyId?: number }, page: PageRequest): Promise<PageOf<LessonNote>>
  insert(lessonId: number, authorId: number, draft: NoteDraft): Promise<LessonNote>
  update(id: number, draft: NoteDraft): Promise<LessonNote>
  delete(id: number): Promise<void>
  /** Of these file ids, the ones this user owns. */
  ownFileIds(userId: number, fileIds: readonly string[]): Promise<string[]>
}

/** A note belongs to a lesson: its bookings are read (and its timeline written) through booking's repository. */
export interface NotesRepos {
  notes: NoteRepository
  bookings: BookingRepos['bookings']
  outbox: BookingRepos['outbox']
}

export type NotesDeps = {
  uow: UnitOfWork<NotesRepos>
  links: BookingDeps['links']
  clock: BookingDeps['clock']
}
