import { PreparedJson } from './json-responses'
import { paginate, type Page } from './pagination'

/** Past this many kept answers per source (one per page asked for), answers are made per request. */
const MAX_KEPT_PER_SOURCE = 64

const kept = new WeakMap<object, Map<string, PreparedJson>>()

/**
 * The answer `build` makes from `source`, serialised and tagged once per source and `key`
 * (which answer of it, and to what query: two routes presenting one list differently give
 * two keys) rather than per request. `source` is a list the cached catalog
 * hands out (see cachedCatalog in adapters): the same object until its entry expires, so a
 * changed list is a new source and answers anew, and the old answers go with the old list.
 * `c.json` takes the result as it would take what `build` returns: same text, ETag and 304.
 */
export function referenceAnswer<T>(source: object, key: string, build: () => T): T {
  let answers = kept.get(source)
  if (answers === undefined) kept.set(source, (answers = new Map()))
  let answer = answers.get(key)
  if (answer === undefined) {
    answer = new PreparedJson(build())
    if (answers.size < MAX_KEPT_PER_SOURCE) answers.set(key, answer)
  }
  // c.json answers a PreparedJson as the object it was made from (json-responses.ts).
  return answer as unknown as T
}

/** The key of a page of a list: the query it was asked with, as validated. */
export const pageKey = (page: Page): string => `${page.page}/${page.per_page}`

/** A page of a cached reference list as it is, answered once per list and page. */
export const referencePage = <T>(list: readonly T[], page: Page) => referenceAnswer(list, `page ${pageKey(page)}`, () => paginate(list, page))
