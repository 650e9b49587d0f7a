/** A reminder sent: one per lesson, start and offset (migration 2026_12_08_100000). */
export interface LessonRemindersTable {
  lesson_id: number
  starts_at: Date
  offset_minutes: number
  sent_at: Date
}
