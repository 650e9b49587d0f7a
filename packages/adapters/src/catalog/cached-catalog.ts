import type { CatalogRepository } from '@tutoring/domain/catalog'

type Entry = { at: number; value: Promise<unknown> }

/**
 * Reference data changes only when an operator seeds or edits it, yet every public page
 * asks for it. This keeps each list per process for `ttlMs`, so the hot path needs no
 * database round trip; an edit shows within the TTL. Service notices depend on the time
 * and are always read fresh. A failed read is not kept.
 */
export function cachedCatalog(repo: CatalogRepository, ttlMs: number, now: () => Date): CatalogRepository {
  const entries = new Map<string, Entry>()
  const cached = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    const at = now().getTime()
    const hit = entries.get(key)
    if (hit && at - hit.at < ttlMs) return hit.value as Promise<T>
    const value = load()
    entries.set(key, { at, value })
    value.catch(() => entries.delete(key))
    return value
  }
  return {
    subjects: (filter) => cached(`subjects:${filter.subjectLevelId ?? ''}`, () => repo.subjects(filter)),
    subjectLevels: (filter) => cached(`levels:${filter.subjectId ?? ''}`, () => repo.subjectLevels(filter)),
    examBoards: () => cached('exam-boards', () => repo.examBoards()),
    countries: () => cached('countries', () => repo.countries()),
    languages: () => cached('languages', () => repo.languages()),
    lessonLocations: () => cached('lesson-locations', () => repo.lessonLocations()),
    cancellationPolicy: () => cached('cancellation-policy', () => repo.cancellationPolicy()),
    lessonPriceSettings: () => cached('lesson-price', () => repo.lessonPriceSettings()),
    activeServiceNotices: (at) => repo.activeServiceNotices(at),
  }
}
