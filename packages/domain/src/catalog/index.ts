export type {
  CancellationPolicyTier,
  CatalogDeps,
  CatalogRepository,
  Country,
  ExamBoard,
  Language,
  LessonLocation,
  LessonPriceSettings,
  ServiceNotice,
  Subject,
  SubjectGroup,
  SubjectLevel,
} from './catalog'
export {
  getLessonPriceSettings,
  listActiveServiceNotices,
  listCancellationPolicy,
  listCountries,
  listExamBoards,
  listLanguages,
  listLessonLocations,
  listSubjectLevels,
} from './list-reference-data'
export { listSubjectGroups, type SubjectGroupEntry } from './list-subject-groups'
export { listSubjects } from './list-subjects'
