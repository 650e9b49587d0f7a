import { err, ok, ResultAsync, type Result } from 'neverthrow'
import type { User } from '../accounts'
import { DURATION_PREFERENCE, type SlotUnavailable } from '../availability'
import { lessonPriceBreakdown, validateCoupon, type CouponInvalid } from '../pricing'
import {
  LESSON_TYPE_IDS,
  MINUTE_MS,
  ROLE_IDS,
  SLOT_INTERVAL_MINUTES,
  forbidden,
  isInPerson,
  validationFailed,
  type FieldErrors,
  type Forbidden,
  type LessonTypeName,
  type ValidationFailed,
  type WithoutLocks,
} from '../shared'
import type { Teach } from '../teaching'
import type { BookingAggregate, LessonAddress } from './booking-record'
import { checkBookingWindow, checkPendingBookings } from './booking-window'
import { checkLessonSlot } from './booking-slot'
import type { BookingWindowExceeded, TooManyPendingBookings } from './errors'
import { expireHold } from './expire-holds'
import { holdExpiresAt } from './hold'
import type { BookingDeps, BookingRepos } from './ports'
import { slotUnavailable } from '../availability'

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
  | ValidationFailed
  | BookingWindowExceeded
  | TooManyPendingBookings
  | CouponInvalid
  | SlotUnavailable

const add = (errors: FieldErrors, field: string, message: string) => {
  ;(errors[field] ??= []).push(message)
}

/** The request against the teach and the booker's children: every field error at once. */
async function checkRequest(repos: WithoutLocks<BookingRepos>, actor: User, input: CreateBookingInput): Promise<Result<Teach, ValidationFailed>> {
  const errors: FieldErrors = {}
  const teach = await repos.teaches.findById(input.teachId)
  if (!teach || !teach.enabled) add(errors, 'teach_id', 'no such teach is offered')
  else {
    if (!teach.subjectLevelIds.includes(input.subjectLevelId)) add(errors, 'subject_level_id', 'is not a level of this teach')
    if (input.examBoardId !== null && !teach.examBoardIds.includes(input.examBoardId)) add(errors, 'exam_board_id', 'is not an exam board of this teach')
    if (teach.tutorId === actor.id) add(errors, 'teach_id', 'you cannot book your own lesson')
  }
  const minutes = (input.finish.getTime() - input.start.getTime()) / MINUTE_MS
  if (!(minutes > 0)) add(errors, 'finish', 'must be after start')
  else if (minutes < DURATION_PREFERENCE.min || minutes > DURATION_PREFERENCE.max || minutes % SLOT_INTERVAL_MINUTES !== 0) {
    add(errors, 'finish', `the lesson lasts ${DURATION_PREFERENCE.min} to ${DURATION_PREFERENCE.max} minutes, in steps of ${SLOT_INTERVAL_MINUTES}`)
  }
  if (input.lessonType === 'students_home' && !input.address) add(errors, 'address', "is required for a lesson at the student's home")
  if (actor.roleId === ROLE_IDS.student && input.childIds.length > 0) add(errors, 'child_ids', 'only a parent books for children')
  if (actor.roleId === ROLE_IDS.parent) {
    if (input.childIds.length === 0) add(errors, 'child_ids', 'name the children the lesson is for')
    const own = new Set(await repos.bookings.ownChildIds(actor.id, input.childIds))
    input.childIds.forEach((id, i) => {
      if (!own.has(id)) add(errors, `child_ids.${i}`, 'is not one of your children')
    })
  }
  return Object.keys(errors).length > 0 || !teach ? err(validationFailed(errors)) : ok(teach)
}

/**
 * `POST /api/bookings`: a student or parent books a slot. Checks in CONTRACT §13's order:
 * validation (422), the 14-day window (422), then, under the tutor's lock, the three-unpaid
 * limit (422) and the slot (409). The lesson (ACTIVE) and the booking (AWAITING_PAYMENT,
 * held for BOOKING_HOLD_MINUTES, its price fixed in pence) are written in one transaction.
 */
export function createBooking(
  deps: Pick<BookingDeps, 'uow' | 'clock' | 'ids' | 'config' | 'availability'>,
  actor: User,
  input: CreateBookingInput,
): ResultAsync<BookingAggregate, CreateBookingError> {
  return new ResultAsync(run(deps, actor, input))
}

async function run(
  deps: Pick<BookingDeps, 'uow' | 'clock' | 'ids' | 'config' | 'availability'>,
  actor: User,
  input: CreateBookingInput,
): Promise<Result<BookingAggregate, CreateBookingError>> {
  if (actor.roleId !== ROLE_IDS.student && actor.roleId !== ROLE_IDS.parent) {
    return err(forbidden('Only students and parents book lessons.'))
  }
  const now = deps.clock.now()
  const checked = await checkRequest(deps.uow.repos, actor, input)
  if (checked.isErr()) return err(checked.error)
  const teach = checked.value
  const window = checkBookingWindow(input.start, now)
  if (window.isErr()) return err(window.error)

  const created = await deps.uow.run(async (repos): Promise<Result<number, CreateBookingError>> => {
    await repos.bookings.lockTutor(teach.tutorId)
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
    for (const id of await repos.bookings.lapsedHoldsOverlapping(teach.tutorId, input.start, input.finish, now)) {
      await expireHold(repos, id, { now, holdMinutes: deps.config.holdMinutes })
    }
    const free = await checkLessonSlot(deps, repos, {
      teachId: teach.id,
      start: input.start,
      finish: input.finish,
      lessonType: input.lessonType,
      subjectLevelId: input.subjectLevelId,
      examBoardId: input.examBoardId,
      address: input.address,
    })
    if (free.isErr()) return err(free.error)
    const price = lessonPriceBreakdown({
      hourlyRatePence: teach.hourlyRatePence,
      durationMinutes: (input.finish.getTime() - input.start.getTime()) / MINUTE_MS,
      serviceFeePercent: deps.config.serviceFeePercent,
      coupon: coupon?.discount,
    })
    const created = await repos.bookings.insert({
      tutorId: teach.tutorId,
      studentId: actor.id,
      teachId: teach.id,
      subjectId: teach.subjectId,
      subjectLevelId: input.subjectLevelId,
      examBoardId: input.examBoardId,
      lessonType: LESSON_TYPE_IDS[input.lessonType],
      start: input.start,
      finish: input.finish,
      address: isInPerson(input.lessonType) ? input.address : null,
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
    if (coupon) await repos.coupons.redeem({ couponId: coupon.id, userId: actor.id, bookingId: created.bookingId, discountPence: price.discount })
    await repos.bookings.addEvent(created.bookingId, 'booked', actor.id, { total: price.total })
    return ok(created.bookingId)
  })
  if (created.isErr()) return err(created.error)
  // Read after the commit, so the tutor's lock is held no longer than the decision needs.
  const aggregate = await deps.uow.repos.bookings.findById(created.value)
  if (!aggregate) throw new Error('a booking just committed must be readable')
  return ok(aggregate)
}
