export * from './catalog'
export { listSubjects } from './list-subjects'
export { listSubjectGroups, type SubjectGroupEntry } from './list-subject-groups'
export * from './list-reference-data'
