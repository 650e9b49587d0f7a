import { sql, type Kysely } from 'kysely'
import type { PageRequest, TutorSearchCriteria } from '@tutoring/domain'
import type { Database } from '../db/database'
import { searchStatementForExplain } from '../db/repositories/tutor-search.repository'

/**
 * The plan of search's page statement. `forceIndexes` turns sequential scans off for it, so a
 * test on a small table can see whether an index is able to serve the statement at all.
 */
export async function explainTutorSearch(
  db: Kysely<Database>,
  criteria: TutorSearchCriteria,
  page: PageRequest,
  options: { forceIndexes?: boolean } = {},
): Promise<string> {
  return db.transaction().execute(async (trx) => {
    if (options.forceIndexes) await sql`set local enable_seqscan = off`.execute(trx)
    await sql`analyze tutor_search`.execute(trx)
    const plan = await sql<{ 'QUERY PLAN': string }>`explain ${searchStatementForExplain(criteria, page)}`.execute(trx)
    return plan.rows.map((row) => row['QUERY PLAN']).join('\n')
  })
}
