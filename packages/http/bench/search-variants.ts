/** The searches search.bench.ts measures and profile.bench.ts's `search` target profiles. */
import type { DatabaseHandle } from '@tutoring/adapters'
import { addDays, type IsoDate } from '@tutoring/domain/shared'

/**
 * The demo generator spreads tutors evenly over every subject with levels (all of them), so
 * any subject has about as many tutors; these are the ones students ask for most.
 */
export const SUBJECTS = ['Mathematics', 'English', 'Chemistry'] as const
/** Central London, where most demo tutors are near (six of the generator's places lie within a few miles). */
export const POSTCODES = ['SW1A 1AA', 'EC1A 1BB', 'W1A 1AA', 'SE1 9SG', 'N1 9AL', 'E14 5AB'] as const
export const DAYS_AHEAD = [1, 2, 3, 4] as const
/** lcm(3, 4, 6): every variant a different (subject, date, place). */
export const VARIANTS = 12

export const SEARCHES = [
  { route: 'online by distance', lessonType: 'online', sort: 'distance' },
  { route: 'online by rating', lessonType: 'online', sort: 'rating' },
  { route: 'students_home by distance', lessonType: 'students_home', sort: 'distance' },
  { route: 'students_home by rating', lessonType: 'students_home', sort: 'rating' },
] as const
export type Search = (typeof SEARCHES)[number]

/** SUBJECTS' ids in the reference data. */
export async function searchSubjectIds(handle: DatabaseHandle): Promise<number[]> {
  const subjects = await handle.db.selectFrom('subjects').select(['id', 'title']).where('title', 'in', SUBJECTS).execute()
  return SUBJECTS.map((title) => {
    const subject = subjects.find((s) => s.title === title)
    if (!subject) throw new Error(`no subject ${title} in the reference data`)
    return subject.id
  })
}

export function variantPaths(search: Search, subjectIds: readonly number[], today: IsoDate): string[] {
  return Array.from({ length: VARIANTS }, (_, i) => {
    const query = new URLSearchParams({
      subject_id: String(subjectIds[i % subjectIds.length]!),
      date: addDays(today, DAYS_AHEAD[i % DAYS_AHEAD.length]!),
      post_code: POSTCODES[i % POSTCODES.length]!,
      'filters[lesson_type]': search.lessonType,
      sort: search.sort,
    })
    return `/api/v1/search?${query.toString()}`
  })
}
