import type { CatalogRepository } from '../catalog'
import type { Clock, Geocoder, PostcodeParser, UnitOfWork } from '../shared'
import type { PageOf, PageRequest } from '../shared'
import type { DaySchedule, DayScheduleDraft } from './day-schedule'
import type { TutorHoliday, Holiday } from './holiday'
import type { TutorLocationRecord, TutorLocationDraft } from './location'

export interface DayScheduleRepository {
  findById(id: number): Promise<DaySchedule | undefined>
  /** Every entry of one tutor, by day and first window. */
  listForTutor(tutorId: number): Promise<DaySchedule[]>
  list(filter: { tutorId?: number }, page: PageRequest): Promise<PageOf<DaySchedule>>
  /**
   * Holds the tutor's schedule until the transaction ends, so two concurrent writes can
   * not both pass the overlap check.
   */
  lockTutor(tutorId: number): Promise<void>
  insert(tutorId: number, draft: DayScheduleDraft): Promise<DaySchedule>
  update(id: number, draft: DayScheduleDraft): Promise<DaySchedule>
  delete(id: number): Promise<void>
}

export interface HolidayRepository {
  findById(id: number): Promise<TutorHoliday | undefined>
  listForTutor(tutorId: number): Promise<TutorHoliday[]>
  list(filter: { tutorId?: number }, page: PageRequest): Promise<PageOf<TutorHoliday>>
  insert(tutorId: number, draft: Holiday): Promise<TutorHoliday>
  delete(id: number): Promise<void>
}

export interface LocationRepository {
  findById(id: number): Promise<TutorLocationRecord | undefined>
  findForTutor(tutorId: number): Promise<TutorLocationRecord | undefined>
  list(filter: { tutorId?: number }, page: PageRequest): Promise<PageOf<TutorLocationRecord>>
  /** Replaces the tutor's location, if any: one per tutor. */
  replace(tutorId: number, draft: TutorLocationDraft): Promise<TutorLocationRecord>
  update(id: number, draft: TutorLocationDraft): Promise<TutorLocationRecord>
  delete(id: number): Promise<void>
}

export interface ScheduleRepos {
  daySchedules: DayScheduleRepository
  holidays: HolidayRepository
  locations: LocationRepository
  catalog: CatalogRepository
}

export type ScheduleDeps = {
  uow: UnitOfWork<ScheduleRepos>
  clock: Clock
  geocoder: Geocoder
  postcodes: PostcodeParser
}
