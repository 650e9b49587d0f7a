import { ResultAsync } from 'neverthrow'
import type { CatalogDeps, Subject } from './catalog'

export const listSubjects = (deps: CatalogDeps, filter: { subjectLevelId?: number } = {}): ResultAsync<Subject[], never> =>
  ResultAsync.fromSafePromise(deps.catalog.subjects(filter))
