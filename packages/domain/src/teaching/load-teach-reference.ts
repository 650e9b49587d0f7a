import type { CatalogRepository } from '../catalog'
import type { TeachReference } from './teach-rules'

/** The whole catalogue is a few dozen rows: reading it beats a query per id. */
export async function loadTeachReference(catalog: CatalogRepository): Promise<TeachReference> {
  const [subjects, examBoards, price] = await Promise.all([
    catalog.subjects({}),
    catalog.examBoards(),
    catalog.lessonPriceSettings(),
  ])
  return { subjects, examBoards, price }
}
