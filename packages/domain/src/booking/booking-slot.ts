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
 * Whether a booked lesson may move to new times: its teach is still offered and availability
 * would offer exactly those times, the lesson's own aside. Read on the transaction's
 * repositories under the tutor's lock.
 */
export async function checkRescheduleSlot(
  deps: Pick<BookingDeps, 'clock' | 'availability'>,
  repos: BookingRepos,
  lesson: LessonRecord,
  times: { start: Date; finish: Date },
): Promise<Result<LoadedAvailability, SlotUnavailable | ValidationFailed>> {
  // A teach no longer offered (disabled, deleted, its tutor gone) has no free time. A tutor
  // who may no longer be booked (isBookable) still moves lessons already booked: they stay.
  const teach = await repos.bookableTeaches.findBookableTeach(lesson.teachId)
  if (!teach) return err(slotUnavailable(times.start, times.finish))
  const studentPoint = await studentPointOf(deps, lesson.lessonType, lesson.address)
  if (studentPoint.isErr()) return err(studentPoint.error)
  return checkSlot({ ...deps.availability, clock: deps.clock }, repos, {
    teach,
    start: times.start,
    finish: times.finish,
    lessonType: lesson.lessonType,
    subjectLevelId: lesson.subjectLevelId,
    examBoardId: lesson.examBoardId,
    studentPoint: studentPoint.value,
    excludeLessonId: lesson.id,
  })
}
