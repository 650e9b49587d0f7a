import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { checkSlot, findBookable, lessonDurationProblem, slotUnavailable, warmSlotCheck, type BookableTeach, type SlotQuery, type SlotUnavailable } from '../availability'
import { couponInvalid, lessonPriceBreakdown, validateCoupon, type CouponInvalid } from '../pricing'
import {
  MINUTE_MS,
  ROLE_IDS,
  forbidden,
  isInPerson,
  notFound,
  formatPence,
  validationFailed,
  type FieldErrors,
  type Forbidden,
  type GeoPoint,
  type NotFound,
  type LessonTypeName,
  type ValidationFailed,
  type WithoutLocks,
  type Actor,
} from '../shared'
import { checkTeachChoice } from '../teaching'
import type { BookingAggregate, LessonAddress } from './booking-record'
import { checkBookingWindow, checkPendingBookings } from './booking-window'
import { studentPointOf } from './booking-slot'
import type { BookingWindowExceeded, TooManyPendingBookings } from './errors'
import { expireHold } from './expire-holds'
import { holdExpiresAt } from './hold'
import { announceBooking } from './integration-events'
import type { BookingDeps, BookingRepos } from './ports'

export type CreateBookingInput = {
  teachId: number
  subjectLevelId: number
  examBoardId: number | null
  start: Date
  finish: Date
  lessonType: LessonTypeName
  childIds: number[]
  address: LessonAddress | null
  coupon: string | null
}

export type CreateBookingError =
  | Forbidden
  | NotFound
  | ValidationFailed
  | BookingWindowExceeded
  | TooManyPendingBookings
  | CouponInvalid
  | SlotUnavailable

const add = (errors: FieldErrors, field: string, message: string) => {
  ;(errors[field] ??= []).push(message)
}

type CheckedRequest = { teach: BookableTeach; studentPoint: GeoPoint | null }

/**
 * The teach first: one that is not offered, or whose tutor may not be booked, is not found
 * (as on availability). Then the request against it and the booker's children: every field
 * error at once; then the student's place.
 */
async function checkRequest(
  deps: Pick<BookingDeps, 'availability'>,
  repos: WithoutLocks<BookingRepos>,
  actor: Actor,
  input: CreateBookingInput,
): Promise<Result<CheckedRequest, ValidationFailed | NotFound>> {
  const errors: FieldErrors = {}
  const teach = await findBookable(repos.bookableTeaches, input.teachId)
  if (!teach) return err(notFound('teach'))
  for (const [field, messages] of Object.entries(checkTeachChoice(teach.teach, input))) for (const m of messages) add(errors, field, m)
  if (teach.teach.tutorId === actor.id) add(errors, 'teach_id', 'you cannot book your own lesson')
  const minutes = (input.finish.getTime() - input.start.getTime()) / MINUTE_MS
  const length = minutes > 0 ? lessonDurationProblem(minutes) : 'must be after start'
  if (length) add(errors, 'finish', length)
  if (input.lessonType === 'students_home' && !input.address) add(errors, 'address', "is required for a lesson at the student's home")
  if (actor.roleId === ROLE_IDS.student && input.childIds.length > 0) add(errors, 'child_ids', 'only a parent books for children')
  if (actor.roleId === ROLE_IDS.parent) {
    if (input.childIds.length === 0) add(errors, 'child_ids', 'name the children the lesson is for')
    const own = new Set(await repos.bookings.ownChildIds(actor.id, input.childIds))
    input.childIds.forEach((id, i) => {
      if (!own.has(id)) add(errors, `child_ids.${i}`, 'is not one of your children')
    })
  }
  if (Object.keys(errors).length > 0) return err(validationFailed(errors))
  const studentPoint = await studentPointOf(deps, input.lessonType, input.address)
  return studentPoint.map((point) => ({ teach, studentPoint: point }))
}

/**
 * `POST /api/bookings`: a student or parent books a slot. Checks in CONTRACT §13's order,
 * after the teach (404 unless offered by a tutor who may be booked): validation (422), the
 * 14-day window (422), then, under the tutor's and the booker's locks, the three-unpaid
 * limit (422), the coupon (422) and the slot (409). The lesson (ACTIVE) and the booking (AWAITING_PAYMENT,
 * held for BOOKING_HOLD_MINUTES, its price fixed in pence) are written in one transaction.
 */
export function createBooking(
  deps: Pick<BookingDeps, 'uow' | 'clock' | 'ids' | 'config' | 'availability'>,
  actor: Actor,
  input: CreateBookingInput,
): ResultAsync<BookingAggregate, CreateBookingError> {
  return new ResultAsync(run(deps, actor, input))
}

async function run(
  deps: Pick<BookingDeps, 'uow' | 'clock' | 'ids' | 'config' | 'availability'>,
  actor: Actor,
  input: CreateBookingInput,
): Promise<Result<BookingAggregate, CreateBookingError>> {
  if (actor.roleId !== ROLE_IDS.student && actor.roleId !== ROLE_IDS.parent) {
    return err(forbidden('Only students and parents book lessons.'))
  }
  const now = deps.clock.now()
  const checked = await checkRequest(deps, deps.uow.repos, actor, input)
  if (checked.isErr()) return err(checked.error)
  const { teach: bookable, studentPoint } = checked.value
  const window = checkBookingWindow(input.start, now)
  if (window.isErr()) return err(window.error)
  const slot: SlotQuery = {
    teach: bookable,
    start: input.start,
    finish: input.finish,
    lessonType: input.lessonType,
    subjectLevelId: input.subjectLevelId,
    examBoardId: input.examBoardId,
    studentPoint,
  }
  // Availability's slow half (the calendar feed, driving times) before the locks; under them
  // the slot check reads only the database.
  const slotDeps = await warmSlotCheck({ ...deps.availability, clock: deps.clock }, deps.uow.repos, slot)

  const created = await deps.uow.run(async (repos): Promise<Result<Pick<BookingAggregate, 'booking' | 'lesson' | 'events'>, CreateBookingError>> => {
    // The booker too: their unpaid limit and coupon uses are counted next, and two bookings of
    // two tutors at the same instant must not both count the same past.
    await repos.bookings.lockTutorAndBooker(bookable.teach.tutorId, actor.id)
    const pending = checkPendingBookings(await repos.bookings.countUnpaidHolding(actor.id, now))
    if (pending.isErr()) return err(pending.error)
    let coupon = undefined
    if (input.coupon !== null) {
      const found = await repos.coupons.findByUid(input.coupon)
      const used = found ? await repos.coupons.redeemedBy(found.id, actor.id) : 0
      const valid = validateCoupon(input.coupon, found, { now, redeemedByUser: used })
      if (valid.isErr()) return err(valid.error)
      coupon = found
    }
    // Lapsed holds give their time up now rather than when the worker comes by.
    for (const id of await repos.bookings.lapsedHoldsOverlapping(bookable.teach.tutorId, input.start, input.finish, now)) {
      await expireHold(repos, id, { now, holdMinutes: deps.config.holdMinutes })
    }
    const free = await checkSlot(slotDeps, repos, slot)
    if (free.isErr()) return err(free.error)
    // The slot check's answer carries the teach it judged the slot for: price and place the lesson by that one.
    const booked = free.value.teach
    const price = lessonPriceBreakdown({
      hourlyRatePence: booked.hourlyRatePence,
      durationMinutes: (input.finish.getTime() - input.start.getTime()) / MINUTE_MS,
      serviceFeePercent: deps.config.serviceFeePercent,
      coupon: coupon?.discount,
    })
    const created = await repos.bookings.insert({
      tutorId: booked.tutorId,
      studentId: actor.id,
      teachId: booked.id,
      subjectId: booked.subjectId,
      subjectLevelId: input.subjectLevelId,
      examBoardId: input.examBoardId,
      lessonType: input.lessonType,
      start: input.start,
      finish: input.finish,
      address: isInPerson(input.lessonType) ? placed(input.address, studentPoint) : null,
      meetingUrl: input.lessonType === 'online' ? `${deps.config.meetingBaseUrl}${deps.ids.uuid()}` : null,
      childIds: input.childIds,
      createdAt: now,
      holdExpiresAt: holdExpiresAt(now, deps.config.holdMinutes),
      lessonPricePence: price.lessonPrice,
      serviceFeePence: price.serviceFee,
      discountPence: price.discount,
      totalPence: price.total,
      couponUid: coupon ? coupon.uid : null,
    })
    if (!created) return err(slotUnavailable(input.start, input.finish))
    if (coupon && !(await repos.coupons.redeem({ couponId: coupon.id, userId: actor.id, bookingId: created.booking.id, discountPence: price.discount }))) {
      return err(couponInvalid(coupon.uid, 'user_usage_limit_reached'))
    }
    const event = await repos.bookings.addEvent(created.booking.id, 'booked', actor.id, { total: formatPence(price.total) })
    await announceBooking(repos, 'booking.created', created, now)
    return ok({ ...created, events: [event] })
  })
  if (created.isErr()) return err(created.error)
  // The answer is what was written, and what it names read once, after the commit, so the
  // tutor's lock is held no longer than the decision needs.
  const { booking, lesson, events } = created.value
  const setting = await deps.uow.repos.bookings.findSetting(lesson, booking.userId)
  return ok({ ...setting, booking, lesson, events, payment: null, notes: [] })
}

/**
 * The address as stored: with the point it was located at, so no later check (a reschedule's,
 * inside its transaction) has to locate it again (CONTRACT §17).
 */
const placed = (address: LessonAddress | null, point: GeoPoint | null): LessonAddress | null =>
  address && point && (address.lat === null || address.lng === null) ? { ...address, lat: point.lat, lng: point.lng } : address
