import type { TutorSearchTable } from './tutor-search.table'
import type { TutorSearchOnlineTable } from './tutor-search-online.table'
import type { TutorSearchInPersonTable } from './tutor-search-in-person.table'
import type { TutorSearchOnlineAwayTable, TutorSearchOnlineCountsTable } from './tutor-search-online-counts.table'

/** The search context's tables, as Kysely sees them; `Database` joins every context's. */
export interface SearchTables {
  tutor_search: TutorSearchTable
  tutor_search_online: TutorSearchOnlineTable
  tutor_search_in_person: TutorSearchInPersonTable
  tutor_search_online_counts: TutorSearchOnlineCountsTable
  tutor_search_online_away: TutorSearchOnlineAwayTable
}
