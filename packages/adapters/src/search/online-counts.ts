import { sql, type Kysely } from 'kysely'
import type { Database } from '../db/database'

/**
 * Folds the online search's count deltas into one row per subject and weekday
 * (`tutor_search_online_compact_counts`, search/sql/online-count.sql), so the total sums few
 * rows. Safe with many instances at once; answers the rows folded (0 when another was at it).
 */
export async function compactOnlineSearchCounts(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ folded: number | string }>`select tutor_search_online_compact_counts() as folded`.execute(db)
  return Number(rows[0]?.folded ?? 0)
}
