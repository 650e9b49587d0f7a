import { err, ok, type Result } from 'neverthrow'
import { checkSlot, slotUnavailable, type LoadedAvailability, type SlotUnavailable } from '../availability'
import { findPostcode, type GeoPoint, type LessonTypeName, type ValidationFailed } from '../shared'
import type { LessonAddress, LessonRecord } from './booking-record'
import type { BookingDeps, BookingRepos } from './ports'

/**
 * Where the student is for a lesson at their home: the address's coordinates, else its
 * postcode located (a 422 on `address.postcode` when it cannot be). Null for other lessons.
 */
export async function studentPointOf(
  deps: Pick<BookingDeps, 'availability'>,
  lessonType: LessonTypeName,
  address: LessonAddress | null,
): Promise<Result<GeoPoint | null, ValidationFailed>> {
  if (lessonType !== 'students_home' || !address) return ok(null)
  if (address.lat !== null && address.lng !== null) return ok({ lat: address.lat, lng: address.lng })
  return findPostcode(deps.availability, address.postcode, 'address.postcode')
}

/**
 * Where the student of a lesson is, located before its transaction: the embedded database has
 * one connection, which the transaction holds, so a geocode (a lookup through the database
 * handle) must not happen inside it (CONTRACT §17). A lesson booked since addresses are
 * stored with their point reads it from the row; an older one is located here, once.
 */
export async function lessonStudentPoint(
  deps: Pick<BookingDeps, 'uow' | 'availability'>,
  lessonId: number,
): Promise<Result<GeoPoint | null, ValidationFailed>> {
  const located = await deps.uow.repos.bookings.findByLessonId(lessonId)
  if (!located) return ok(null)
  return studentPointOf(deps, located.lesson.lessonType, located.lesson.address)
}

/**
 * Whether a booked lesson may move to new times: its teach is still offered and availability
 * would offer exactly those times, the lesson's own aside. Read on the transaction's
 * repositories under the tutor's lock; the student's point was located before it
 * (`lessonStudentPoint`).
 */
export async function checkRescheduleSlot(
  deps: Pick<BookingDeps, 'clock' | 'availability'>,
  repos: BookingRepos,
  lesson: LessonRecord,
  move: { start: Date; finish: Date; studentPoint: Result<GeoPoint | null, ValidationFailed> },
): Promise<Result<LoadedAvailability, SlotUnavailable | ValidationFailed>> {
  // A teach no longer offered (disabled, deleted, its tutor gone) has no free time. A tutor
  // who may no longer be booked (isBookable) still moves lessons already booked: they stay.
  const teach = await repos.bookableTeaches.findBookableTeach(lesson.teachId)
  if (!teach) return err(slotUnavailable(move.start, move.finish))
  if (move.studentPoint.isErr()) return err(move.studentPoint.error)
  return checkSlot({ ...deps.availability, clock: deps.clock }, repos, {
    teach,
    start: move.start,
    finish: move.finish,
    lessonType: lesson.lessonType,
    subjectLevelId: lesson.subjectLevelId,
    examBoardId: lesson.examBoardId,
    studentPoint: lesson.lessonType === 'students_home' ? move.studentPoint.value : null,
    excludeLessonId: lesson.id,
  })
}
