import { sql, type Kysely } from 'kysely'
import type { TutorSearchCriteria } from '@tutoring/domain/search'
import type { PageRequest } from '@tutoring/domain/shared'
import type { Database } from '../db/database'
import { searchStatementForExplain } from '../search/tutor-search.repository'

/** The plan of search's page statement, after fresh statistics; `analyze` runs it for real timings. */
export async function explainTutorSearch(
  db: Kysely<Database>,
  criteria: TutorSearchCriteria,
  page: PageRequest,
  options: { analyze?: boolean } = {},
): Promise<string> {
  return db.transaction().execute(async (trx) => {
    await sql`analyze tutor_search`.execute(trx)
    const statement = searchStatementForExplain(criteria, page)
    const plan = await sql<{ 'QUERY PLAN': string }>`explain ${options.analyze ? sql`(analyze, costs off)` : sql``} ${statement}`.execute(trx)
    return plan.rows.map((row) => row['QUERY PLAN']).join('\n')
  })
}

/** Fresh planner statistics after a bulk load (benchmarks, plan tests). */
export async function analyzeDatabase(db: Kysely<Database>): Promise<void> {
  await sql`analyze`.execute(db)
}
