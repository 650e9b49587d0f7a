export {
  type Eligibility,
  ELIGIBILITY_REASONS,
  type EligibilityReason,
  searchEligibility,
  type SearchQuery,
  type TutorLocation,
  type TutorSnapshot,
} from './eligibility'
export { searchQuerySchema, tutorSnapshotSchema } from './input-schema'
export {
  SEARCH_SORTS,
  type SearchDeps,
  type SearchRepos,
  type SearchSort,
  type TutorSearchCriteria,
  type TutorSearchHit,
  type TutorSearchRepository,
  type TutorSearchResult,
} from './ports'
export { compareByRating, type RatedTutor } from './rating-order'
export { searchTutors, type SearchTutorsInput, type TutorSearchPage } from './search-tutors'
