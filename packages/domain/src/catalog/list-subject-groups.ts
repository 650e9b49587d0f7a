import { ResultAsync } from 'neverthrow'
import { SUBJECT_GROUPS, type CatalogDeps, type Subject, type SubjectGroup } from './catalog'

export type SubjectGroupEntry = { group: SubjectGroup; subjects: Subject[] }

/** Every group, in a fixed order, even when it has no subjects yet. */
export const listSubjectGroups = (deps: CatalogDeps): ResultAsync<SubjectGroupEntry[], never> =>
  ResultAsync.fromSafePromise(deps.catalog.subjects({})).map((subjects) =>
    SUBJECT_GROUPS.map((group) => ({ group, subjects: subjects.filter((s) => s.group === group) })),
  )
