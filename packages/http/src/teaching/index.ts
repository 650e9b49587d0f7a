import { teachRoutes } from './teaching.routes'

/** What a tutor teaches. */
export const routes = teachRoutes
export {
  AvailableTeachSchema,
  TeachSchema,
  idParam,
  presentAvailableTeach,
  presentTeach,
  referenceId,
  tutorRecordsQuery,
} from './teaching.schemas'
