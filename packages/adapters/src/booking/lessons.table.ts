import type { Generated, JSONColumnType, Selectable } from 'kysely'

/** An in-person lesson's place, as stored in `lessons.address`. */
export type LessonAddressJson = {
  line1: string
  line2: string | null
  city: string
  postcode: string
  country: string
  lat: number | null
  lng: number | null
}

export interface LessonsTable {
  id: Generated<number>
  tutor_id: number
  student_id: number
  teach_id: number
  subject_id: number
  subject_level_id: number
  exam_board_id: number | null
  /** TUTORS_HOME 1, STUDENTS_HOME 2, ONLINE 3 */
  lesson_type: number
  /** CANCELLED 0, ACTIVE 1, RESCHEDULE 2 */
  state: Generated<number>
  start_at: Date
  finish_at: Date
  suggested_start_at: Date | null
  suggested_finish_at: Date | null
  proposed_by: number | null
  proposal_expires_at: Date | null
  address: JSONColumnType<LessonAddressJson | null, string | null, string | null>
  meeting_url: string | null
  experience_rating: number | null
  cancelled_at: Date | null
  cancelled_by: number | null
  /** When the lesson was counted in its tutor's hours taught (`tutor_hours`); null while not counted. */
  taught_at: Date | null
  created_at: Generated<Date>
  updated_at: Generated<Date>
}
export interface LessonChildrenTable {
  lesson_id: number
  child_id: number
}
export type LessonRow = Selectable<LessonsTable>
