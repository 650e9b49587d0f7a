import { ResultAsync } from 'neverthrow'
import type { CatalogDeps } from './catalog'

/** The plain reference lists: each reads one table as it is. */
export const listSubjectLevels = (deps: CatalogDeps, filter: { subjectId?: number } = {}) =>
  ResultAsync.fromSafePromise(deps.catalog.subjectLevels(filter))
export const listExamBoards = (deps: CatalogDeps) => ResultAsync.fromSafePromise(deps.catalog.examBoards())
export const listCountries = (deps: CatalogDeps) => ResultAsync.fromSafePromise(deps.catalog.countries())
export const listLanguages = (deps: CatalogDeps) => ResultAsync.fromSafePromise(deps.catalog.languages())
export const listLessonLocations = (deps: CatalogDeps) => ResultAsync.fromSafePromise(deps.catalog.lessonLocations())
export const listCancellationPolicy = (deps: CatalogDeps) =>
  ResultAsync.fromSafePromise(deps.catalog.cancellationPolicy())
export const getLessonPriceSettings = (deps: CatalogDeps) =>
  ResultAsync.fromSafePromise(deps.catalog.lessonPriceSettings())
export const listActiveServiceNotices = (deps: CatalogDeps, now: Date) =>
  ResultAsync.fromSafePromise(deps.catalog.activeServiceNotices(now))
