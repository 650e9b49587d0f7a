/** Deltas of the rows of `tutor_search_online` per (subject, weekday): search/sql/online-count.sql. */
export interface TutorSearchOnlineCountsTable {
  subject_id: number
  weekday: number
  /** bigint: a string from the driver. */
  n: string
}

/** One row per online row and range of its `away`: search/sql/online-count.sql. */
export interface TutorSearchOnlineAwayTable {
  subject_id: number
  weekday: number
  tutor_id: number
  /** A daterange, as text. */
  during: string
}
