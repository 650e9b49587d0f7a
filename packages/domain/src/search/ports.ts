import type { PriceBreakdown } from '../pricing'
import type { Gender } from '../profiles'
import type { Clock, Geocoder, GeoPoint, IsoDate, LessonTypeName, PageOf, PageRequest, PostcodeParser, UnitOfWork } from '../shared'
import type { Titled } from '../teaching'

export const SEARCH_SORTS = ['distance', 'rating', 'price_asc', 'price_desc'] as const
export type SearchSort = (typeof SEARCH_SORTS)[number]

/**
 * What the repository is asked: the eligibility query (`today`, `date`, `lessonType`,
 * `studentLocation`, as `searchEligibility` reads them) plus the filters on a tutor's teaches,
 * gender and languages. `date`, when present, lies within the 14-day window.
 */
export type TutorSearchCriteria = {
  today: IsoDate
  date?: IsoDate
  /** 0 (Sunday) .. 6 (Saturday) of `date`, as the schedule stores weekdays. */
  weekday?: number
  lessonType?: LessonTypeName
  studentLocation?: GeoPoint
  subjectId?: number
  subjectLevelIds: readonly number[]
  examBoardIds: readonly number[]
  gender?: Gender
  languageId?: number
  sort: SearchSort
}

/** One tutor found, with the teach that matched best (the cheapest, then the oldest). */
export type TutorSearchHit = {
  tutorId: number
  firstname: string
  lastname: string
  tutoringExperienceMonths: number | null
  /** Miles from the student's place to the tutor's public point, in bands (`distanceBand`); null without one or when the tutor has no location. */
  distanceMiles: number | null
  teach: {
    id: number
    subject: Titled
    /** The first requested level the teach has, else its first level. */
    subjectLevel: Titled | null
    examBoards: Titled[]
    hourlyRatePence: number
  }
}

export interface TutorSearchRepository {
  search(criteria: TutorSearchCriteria, page: PageRequest): Promise<PageOf<TutorSearchHit>>
}

export interface SearchRepos {
  tutorSearch: TutorSearchRepository
}

export type SearchDeps = {
  uow: UnitOfWork<SearchRepos>
  clock: Clock
  geocoder: Geocoder
  postcodes: PostcodeParser
  config: { serviceFeePercent: number }
}

export type TutorSearchResult = TutorSearchHit & { price: PriceBreakdown }
