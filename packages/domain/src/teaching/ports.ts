import type { CatalogRepository } from '../catalog'
import type { Clock, UnitOfWork } from '../shared'
import type { PageOf, PageRequest } from '../shared'
import type { AvailableTeach, AvailableTeachFilter, Teach, TeachDraft } from './teach'

/** Live (not deleted) teaches only. */
export interface TeachRepository {
  findById(id: number): Promise<Teach | undefined>
  findBySubject(tutorId: number, subjectId: number): Promise<Teach | undefined>
  list(filter: { tutorId?: number }, page: PageRequest): Promise<PageOf<Teach>>
  /** Undefined when the tutor already has a live teach of that subject. */
  insert(tutorId: number, draft: TeachDraft): Promise<Teach | undefined>
  /** Undefined when the tutor already has another live teach of that subject. */
  update(id: number, draft: TeachDraft): Promise<Teach | undefined>
  softDelete(id: number, at: Date): Promise<void>
  /** Enabled teaches of live tutors who may be booked (`isBookable`, in the query). */
  listAvailable(filter: AvailableTeachFilter, page: PageRequest): Promise<PageOf<AvailableTeach>>
}

export interface TeachingRepos {
  teaches: TeachRepository
  catalog: CatalogRepository
}

export type TeachingDeps = { uow: UnitOfWork<TeachingRepos>; clock: Clock }
