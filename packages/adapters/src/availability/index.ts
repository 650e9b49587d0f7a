/** What other adapters rooms use of availability's: the bookable teach's statement, which booking extends. */
export { bookableTeachQuery, rowToBookableTeach, type BookableTeachRow } from './bookable-teach.repository'
