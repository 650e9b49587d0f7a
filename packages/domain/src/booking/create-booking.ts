import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { checkSlot, findBookable, lessonDurationProblem, slotUnavailable, warmSlotCheck, type BookableTeach, type SlotCheckDeps, type SlotQuery, type SlotUnavailable } from '../availability'
import { couponInvalid, lessonPriceBreakdown, validateCoupon, type CouponInvalid } from '../pricing'
import {
  DEFAULT_TUTOR_TIME_ZONE,
  MINUTE_MS,
  ROLE_IDS,
  isValidTimeZone,
  weeklyTimes,
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
import { checkTeachChoice, type Titled } from '../teaching'
import type { BookingAggregate, BookingSetting, LessonAddress } from './booking-record'
import { checkBookingWindow, checkPendingBookings } from './booking-window'
import { studentPointOf } from './booking-slot'
import type { BookingWindowExceeded, TooManyPendingBookings } from './errors'
import { expireHold } from './expire-holds'
import { holdExpiresAt } from './hold'
import { announceBooking } from './integration-events'
import type { BookingDeps, BookingRepos, BookingTeach } from './ports'

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
  /** 1 for a lone lesson; up to 12 for a weekly series at the same wall-clock time (CONTRACT §16). */
  repeatWeeks?: number
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

type CheckedRequest = { teach: BookingTeach; children: BookingSetting['children']; studentPoint: GeoPoint | null }

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
  const teach = await findBookable({ findBookableTeach: (id) => repos.bookings.findBookingTeach(id, actor.id, input.subjectLevelId) }, input.teachId)
  if (!teach) return err(notFound('teach'))
  for (const [field, messages] of Object.entries(checkTeachChoice(teach.teach, input))) for (const m of messages) add(errors, field, m)
  if (teach.teach.tutorId === actor.id) add(errors, 'teach_id', 'you cannot book your own lesson')
  const minutes = (input.finish.getTime() - input.start.getTime()) / MINUTE_MS
  const length = minutes > 0 ? lessonDurationProblem(minutes) : 'must be after start'
  if (length) add(errors, 'finish', length)
  if (input.lessonType === 'students_home' && !input.address) add(errors, 'address', "is required for a lesson at the student's home")
  if (actor.roleId === ROLE_IDS.student && input.childIds.length > 0) add(errors, 'child_ids', 'only a parent books for children')
  let children: BookingSetting['children'] = []
  if (actor.roleId === ROLE_IDS.parent) {
    if (input.childIds.length === 0) add(errors, 'child_ids', 'name the children the lesson is for')
    const own = new Map((await repos.bookings.ownChildren(actor.id, input.childIds)).map((child) => [child.id, child]))
    input.childIds.forEach((id, i) => {
      if (!own.has(id)) add(errors, `child_ids.${i}`, 'is not one of your children')
    })
    // As the lesson's detail lists them: one per child named, by id.
    children = input.childIds.flatMap((id) => own.get(id) ?? []).sort((a, b) => a.id - b.id)
  }
  if (Object.keys(errors).length > 0) return err(validationFailed(errors))
  const studentPoint = await studentPointOf(deps, input.lessonType, input.address)
  return studentPoint.map((point) => ({ teach, children, studentPoint: point }))
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
  const { teach: bookable, children, studentPoint } = checked.value
  // Only the first week must fall in the window (CONTRACT §16): a series books ahead of it.
  const window = checkBookingWindow(input.start, now)
  if (window.isErr()) return err(window.error)
  const zone = isValidTimeZone(bookable.timeZone) ? bookable.timeZone : DEFAULT_TUTOR_TIME_ZONE
  const slots: SlotQuery[] = weeklyTimes(input, input.repeatWeeks ?? 1, zone).map(({ start, finish }) => ({
    teach: bookable,
    start,
    finish,
    lessonType: input.lessonType,
    subjectLevelId: input.subjectLevelId,
    examBoardId: input.examBoardId,
    studentPoint,
  }))
  // Availability's slow half (the calendar feed, driving times) before the locks; under them
  // the slot check reads only the database.
  const slotDeps = await warmSlotChecks({ ...deps.availability, clock: deps.clock }, deps.uow.repos, slots)

  const created = await deps.uow.run(async (repos): Promise<Result<Pick<BookingAggregate, 'booking' | 'lesson' | 'events' | 'series' | 'subject'>, CreateBookingError>> => {
    // The booker too: their unpaid limit and coupon uses are counted next, and two bookings of
    // two tutors at the same instant must not both count the same past.
    await repos.bookings.lockTutorAndBooker(bookable.teach.tutorId, actor.id)
    const holds = await repos.bookings.holdsAround(actor.id, bookable.teach.tutorId, slots, now)
    const pending = checkPendingBookings(holds.unpaidHolding)
    if (pending.isErr()) return err(pending.error)
    let coupon = undefined
    let usedBefore = 0
    if (input.coupon !== null) {
      const found = await repos.coupons.findByUid(input.coupon)
      const used = found ? await repos.coupons.redeemedBy(found.id, actor.id) : 0
      const valid = validateCoupon(input.coupon, found, { now, redeemedByUser: used })
      if (valid.isErr()) return err(valid.error)
      coupon = found
      usedBefore = used
    }
    // Lapsed holds in the way give their time up now rather than when the worker comes by.
    for (const id of holds.lapsedHoldIds) await expireHold(repos, id, { now, holdMinutes: deps.config.holdMinutes })
    const free = await checkWeeks(slotDeps, repos, slots, now)
    if (free.isErr()) return err(free.error)
    // The slot check's answer carries the teach it judged the slot for: price and place the lesson by that one.
    const booked = free.value
    // Its subject changed since the first read (a tutor's edit in between): the lesson is of the new one.
    const subject = booked.subjectId === bookable.setting.subject.id ? bookable.setting.subject : await subjectTitled(repos, booked.subjectId)
    const seriesId = slots.length > 1 ? await repos.bookings.insertSeries(actor.id, slots.length, now) : null
    const written: Array<Pick<BookingAggregate, 'booking' | 'lesson' | 'events'>> = []
    for (const [index, slot] of slots.entries()) {
      // A coupon is redeemed once, on the first week (its use limits count bookings).
      const weekCoupon = index === 0 ? coupon : undefined
      const price = lessonPriceBreakdown({
        hourlyRatePence: booked.hourlyRatePence,
        durationMinutes: (slot.finish.getTime() - slot.start.getTime()) / MINUTE_MS,
        serviceFeePercent: deps.config.serviceFeePercent,
        coupon: weekCoupon?.discount,
      })
      const created = await repos.bookings.insert({
        tutorId: booked.tutorId,
        studentId: actor.id,
        teachId: booked.id,
        subjectId: booked.subjectId,
        subjectLevelId: input.subjectLevelId,
        examBoardId: input.examBoardId,
        lessonType: input.lessonType,
        start: slot.start,
        finish: slot.finish,
        address: isInPerson(input.lessonType) ? placed(input.address, studentPoint) : null,
        meetingUrl: input.lessonType === 'online' ? `${deps.config.meetingBaseUrl}${deps.ids.uuid()}` : null,
        childIds: input.childIds,
        createdAt: now,
        holdExpiresAt: holdExpiresAt(now, deps.config.holdMinutes),
        lessonPricePence: price.lessonPrice,
        serviceFeePence: price.serviceFee,
        discountPence: price.discount,
        totalPence: price.total,
        couponUid: weekCoupon ? weekCoupon.uid : null,
        series: seriesId === null ? null : { id: seriesId, position: index + 1 },
        event: { kind: 'booked', actorId: actor.id, data: { total: formatPence(price.total) } },
      })
      // The database refused the time (the exclusion constraint): the transaction rolls every week back.
      if (!created) return err(slotUnavailable(slot.start, slot.finish, [slot.start]))
      if (weekCoupon && !(await repos.coupons.redeem({ couponId: weekCoupon.id, userId: actor.id, bookingId: created.booking.id, discountPence: price.discount, useNumber: usedBefore + 1 }))) {
        return err(couponInvalid(weekCoupon.uid, 'user_usage_limit_reached'))
      }
      await announceBooking(repos, 'booking.created', created, now)
      written.push({ booking: created.booking, lesson: created.lesson, events: [created.event] })
    }
    const first = written[0]!
    const bookingIds = written.map((w) => w.booking.id)
    return ok({ ...first, subject, series: seriesId === null ? null : { id: seriesId, position: 1, weeks: slots.length, bookingIds } })
  })
  if (created.isErr()) return err(created.error)
  // The answer is what was written and what the checks read on the way: no read after the
  // commit. The level was checked against the teach, so it is one the catalog has.
  const { booking, lesson, events, series, subject } = created.value
  const { tutor, booker, subjectLevel } = bookable.setting
  if (!subjectLevel) throw new Error(`subject level ${input.subjectLevelId} of teach ${input.teachId} is not in the catalog`)
  return ok({ tutor, booker, children, subject, subjectLevel, booking, lesson, events, series, payment: null, notes: [] })
}

/** A subject as the catalog names it. */
async function subjectTitled(repos: Pick<BookingRepos, 'catalog'>, subjectId: number): Promise<Titled> {
  const found = (await repos.catalog.subjects({})).find((s) => s.id === subjectId)
  if (!found) throw new Error(`subject ${subjectId} is not in the catalog`)
  return { id: found.id, title: found.title }
}

/**
 * The slot deps a week is judged with: availability only offers the 14-day window, so a later
 * week of a series is judged as availability would offer it as many weeks on, when it falls
 * in the window (CONTRACT §16: only the first week must). The first week is judged now.
 */
const judgedAt = (deps: SlotCheckDeps, first: SlotQuery, slot: SlotQuery, now: Date): SlotCheckDeps => {
  const shift = slot.start.getTime() - first.start.getTime()
  return shift === 0 ? deps : { ...deps, clock: { now: () => new Date(now.getTime() + shift) } }
}

const warmSlotChecks = async (deps: SlotCheckDeps, repos: WithoutLocks<BookingRepos>, slots: readonly SlotQuery[]): Promise<SlotCheckDeps> => {
  const now = deps.clock.now()
  let warm = deps
  for (const slot of slots) warm = { ...(await warmSlotCheck(judgedAt(warm, slots[0]!, slot, now), repos, slot)), clock: deps.clock }
  return warm
}

/**
 * Every week's slot, under the tutor's lock: all free, or the starts of those that are not
 * (CONTRACT §16, all or none). Ok answers the teach the first week was judged for.
 */
async function checkWeeks(slotDeps: SlotCheckDeps, repos: BookingRepos, slots: readonly SlotQuery[], now: Date): Promise<Result<BookableTeach['teach'], SlotUnavailable>> {
  const conflicts: Date[] = []
  let teach: BookableTeach['teach'] | undefined
  for (const slot of slots) {
    const free = await checkSlot(judgedAt(slotDeps, slots[0]!, slot, now), repos, slot)
    if (free.isErr()) conflicts.push(slot.start)
    else teach ??= free.value.teach
  }
  const [first] = slots
  if (conflicts.length > 0 || !teach || !first) return err(slotUnavailable(first?.start ?? now, first?.finish ?? now, conflicts))
  return ok(teach)
}

/**
 * The address as stored: with the point it was located at, so no later check (a reschedule's,
 * inside its transaction) has to locate it again (CONTRACT §17).
 */
const placed = (address: LessonAddress | null, point: GeoPoint | null): LessonAddress | null =>
  address && point && (address.lat === null || address.lng === null) ? { ...address, lat: point.lat, lng: point.lng } : address
