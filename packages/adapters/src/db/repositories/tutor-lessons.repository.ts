import { sql, type Kysely } from 'kysely'
import { lessonTypeName, type TutorLesson, type TutorLessonsReader } from '@tutoring/domain'
import type { Database } from '../database'
import type { LessonRow } from '../tables/lessons.table'

/** CANCELLED 0 frees its time; ACTIVE 1 and RESCHEDULE 2 hold it. */
const CANCELLED = 0

const rowToTutorLesson = (row: Pick<LessonRow, 'id' | 'start_at' | 'finish_at' | 'lesson_type' | 'address'>): TutorLesson => {
  const type = lessonTypeName(row.lesson_type)
  if (!type) throw new RangeError(`lesson ${row.id} has an unknown lesson_type ${row.lesson_type}`)
  const lat = row.address?.lat
  const lng = row.address?.lng
  return {
    id: Number(row.id),
    start: row.start_at,
    finish: row.finish_at,
    lessonType: type,
    addressPoint: typeof lat === 'number' && typeof lng === 'number' ? { lat, lng } : null,
  }
}

/** Read-only: a tutor's live lessons for availability and booking. */
export function tutorLessonsRepository(db: Kysely<Database>): TutorLessonsReader {
  return {
    async liveLessonsOfTutor(tutorId, from, to, options = {}) {
      let query = db
        .selectFrom('lessons')
        .select(['id', 'start_at', 'finish_at', 'lesson_type', 'address'])
        .where('tutor_id', '=', tutorId)
        .where('state', '<>', CANCELLED)
        // Spelled as the double-booking constraint's own index expression, so its GiST index
        // answers tutor and time range together rather than the tutor alone.
        .where(sql<boolean>`tstzrange(start_at, finish_at, '[)') && tstzrange(${from}, ${to}, '[)')`)
      if (options.excludeLessonId !== undefined) query = query.where('id', '<>', options.excludeLessonId)
      const rows = await query.orderBy('start_at').execute()
      return rows.map(rowToTutorLesson)
    },
  }
}
