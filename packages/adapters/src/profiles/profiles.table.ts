import type { Generated, Selectable } from 'kysely'

export interface ProfilesTable {
  id: Generated<number>
  user_id: number
  bio: string | null
  teacher_reference_number: string | null
  tutoring_experience_months: number | null
  is_visible: Generated<boolean>
  time_zone: Generated<string>
  profile_picture_file_id: string | null
  profile_video_file_id: string | null
  /** An ICS feed whose events block availability. */
  calendar_feed_url: Generated<string | null>
  created_at: Generated<Date>
  updated_at: Generated<Date>
}
export type ProfileRow = Selectable<ProfilesTable>
