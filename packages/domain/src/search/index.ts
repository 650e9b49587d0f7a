export * from './eligibility'
export * from './ports'
export { searchTutors, type SearchTutorsInput, type TutorSearchPage } from './search-tutors'
