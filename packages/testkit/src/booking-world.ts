/**
 * Booking's and booking-payments' ports in memory, with the availability readers the slot
 * check reads, for booking and payment use-case tests: `const world = bookingWorld('2026-06-01T09:00:00Z')`,
 * then `world.addTutor()`, `world.addTeach(...)`, and the use case with `world.deps`.
 * Like the database, it refuses a lesson that overlaps another live lesson of its tutor.
 */
import type { BookableTeach, SlotFactsRange, TutorSlotFacts } from '@tutoring/domain/availability'
import type {
  BookingAggregate,
  BookingDeps,
  BookingEvent,
  BookingPayment,
  BookingRecord,
  BookingSetting,
  LessonNote,
  LessonRecord,
  Person,
  StoredCoupon,
} from '@tutoring/domain/booking'
import { PAYMENT_SYNC_TOPICS } from '@tutoring/domain/booking'
import type { BookingPaymentsDeps, BookingPaymentsRepos } from '@tutoring/domain/booking-payments'
import type { OutboxMessage } from '@tutoring/domain/outbox'
import type { PayoutAccountState } from '@tutoring/domain/payments'
import { DAY_NAMES, type DaySchedule, type TutorHoliday, type TutorLocationRecord } from '@tutoring/domain/schedule'
import { ROLE_IDS, type GeoPoint, type RoleId } from '@tutoring/domain/shared'
import type { TutorBookability } from '@tutoring/domain/teaching'
import { fakeClock, fakePaymentProcessor, integrationEventsOf, memoryUnitOfWork, notFakedIn, outboxOf, type IntegrationEventRecord, paymentCustomersOf, payoutAccountsOf, webhookEventLogOf, type FakeClock } from './fakes'


/** The work a payment still owes (the adapter's rule): a scheduled authorisation, or a capture. */
const dueWorkOf = (p: BookingPayment): 'authorize' | 'capture' | null =>
  p.status === 'scheduled' && p.authorizeAt !== null ? 'authorize' : p.status === 'requires_capture' && p.captureAt !== null ? 'capture' : null

export type BookingWorldState = {
  people: Person[]
  children: Array<{ id: number; parentId: number; firstname: string; lastname: string }>
  teaches: BookableTeach[]
  schedules: DaySchedule[]
  holidays: TutorHoliday[]
  locations: TutorLocationRecord[]
  lessons: Array<LessonRecord & { childIds: number[] }>
  bookings: BookingRecord[]
  payments: BookingPayment[]
  events: Array<BookingEvent & { bookingId: number }>
  coupons: StoredCoupon[]
  redemptions: Array<{ couponId: number; userId: number; bookingId: number; discountPence: number }>
  notes: LessonNote[]
  defaultCards: Array<{ userId: number; paymentMethodId: string }>
  customers: Array<{ userId: number; customerId: string }>
  cancellationPolicy: Array<{ id: number; hoursBeforeStart: number; refundPercent: number }>
  outbox: OutboxMessage[]
  /** Events recorded for integrators' webhooks, in order. */
  integrationEvents: IntegrationEventRecord[]
  webhookEvents: string[]
  payoutAccounts: Array<PayoutAccountState & { at: Date }>
  tutorTransfers: Array<{ id: number; paymentId: number; tutorId: number; transferGroup: string; status: 'waiting' | 'queued' | 'sent' }>
  payouts: Array<{ id: string; tutorId: number; amountPence: number; status: 'paid' | 'failed'; failureMessage: string | null }>
  /** When each lesson counted in its tutor's hours taught was counted, by lesson id. */
  taughtAt: Record<number, Date>
  /** Each tutor's hours taught, in minutes, by tutor id. */
  minutesTaught: Record<number, number>
  nextId: number
}

const overlaps = (a: { start: Date; finish: Date }, b: { start: Date; finish: Date }) => a.start < b.finish && b.start < a.finish
const retryDue = (p: BookingPayment, at: Date) => p.retryAt === null || p.retryAt <= at
const paymentRecord = (p: BookingPayment | undefined, tutorIdOf: (bookingId: number) => number | undefined) => {
  const tutorId = p && tutorIdOf(p.bookingId)
  return p && tutorId !== undefined
    ? structuredClone({ id: p.id, bookingId: p.bookingId, userId: p.userId, status: p.status, amountPence: p.amountPence, capturedPence: p.capturedPence, refundedPence: p.refundedPence, dispute: p.dispute, intentId: p.intentId, voidedIntentId: p.voidedIntentId, paymentMethodId: p.paymentMethodId, failedAttempts: p.failedAttempts, tutorId })
    : undefined
}

const notFaked = notFakedIn('booking world')

export function bookingWorld(now: string) {
  const state: BookingWorldState = {
    people: [],
    children: [],
    teaches: [],
    schedules: [],
    holidays: [],
    locations: [],
    lessons: [],
    bookings: [],
    payments: [],
    events: [],
    coupons: [],
    redemptions: [],
    notes: [],
    defaultCards: [],
    customers: [],
    cancellationPolicy: [],
    outbox: [],
    integrationEvents: [],
    webhookEvents: [],
    payoutAccounts: [],
    tutorTransfers: [],
    payouts: [],
    taughtAt: {},
    minutesTaught: {},
    nextId: 1,
  }
  const id = () => state.nextId++
  const person = (personId: number): Person => {
    const found = state.people.find((p) => p.id === personId)
    if (!found) throw new Error(`no such person: ${personId}`)
    return found
  }
  const setting = (lesson: Pick<LessonRecord, 'id' | 'tutorId' | 'subjectId' | 'subjectLevelId'>, bookerId: number, personOf = person): BookingSetting => {
    const childIds = state.lessons.find((l) => l.id === lesson.id)?.childIds ?? []
    return structuredClone({
      tutor: { ...personOf(lesson.tutorId), hasPicture: false, bio: null, overallRating: null, reviewCount: 0, minutesTaught: state.minutesTaught[lesson.tutorId] ?? 0 },
      booker: personOf(bookerId),
      children: state.children.filter((c) => childIds.includes(c.id)).map(({ id: childId, firstname, lastname }) => ({ id: childId, firstname, lastname })),
      subject: { id: lesson.subjectId, title: `Subject ${lesson.subjectId}` },
      subjectLevel: { id: lesson.subjectLevelId, title: `Level ${lesson.subjectLevelId}` },
    })
  }
  const aggregate = (bookingId: number): BookingAggregate | undefined => {
    const booking = state.bookings.find((b) => b.id === bookingId)
    if (!booking) return undefined
    const { childIds: _children, ...lesson } = state.lessons.find((l) => l.id === booking.lessonId)!
    const payments = state.payments.filter((p) => p.bookingId === booking.id)
    return structuredClone({
      ...setting(lesson, booking.userId),
      booking,
      series: null,
      lesson,
      payment: payments.at(-1) ?? null,
      events: state.events.filter((e) => e.bookingId === booking.id).map(({ bookingId: _b, ...e }) => e),
      notes: state.notes.filter((n) => n.lessonId === lesson.id),
    })
  }
  const liveOf = (tutorId: number) => state.lessons.filter((l) => l.tutorId === tutorId && l.state !== 'CANCELLED')
  const lessonOf = (bookingId: number) => state.lessons.find((l) => l.id === state.bookings.find((b) => b.id === bookingId)?.lessonId)

  /** As the database answers `slotFacts`: schedule by day and first window, holidays by start date, lessons by start. */
  const factsOf = (tutorId: number, range: SlotFactsRange): TutorSlotFacts => ({
    schedule: structuredClone(state.schedules.filter((s) => s.tutorId === tutorId)),
    holidays: structuredClone(state.holidays.filter((h) => h.tutorId === tutorId)),
    location: structuredClone(state.locations.find((l) => l.tutorId === tutorId)),
    lessons: liveOf(tutorId)
      .filter((l) => l.id !== range.excludeLessonId && overlaps(l, { start: range.from, finish: range.to }))
      .sort((a, b) => a.start.getTime() - b.start.getTime())
      .map((l) => ({ id: l.id, start: l.start, finish: l.finish, lessonType: l.lessonType, addressPoint: l.address && l.address.lat !== null && l.address.lng !== null ? { lat: l.address.lat, lng: l.address.lng } : null })),
  })

  const repos: BookingPaymentsRepos = {
    bookings: {
      lockTutor: async () => {},
      lockTutorAndBooker: async () => {},
      holdsAround: async (bookerId, tutorId, times, at) => ({
        unpaidHolding: state.bookings.filter((b) => b.userId === bookerId && b.state === 'AWAITING_PAYMENT' && b.holdExpiresAt !== null && b.holdExpiresAt > at && lessonOf(b.id)?.state !== 'CANCELLED').length,
        lapsedHoldIds: state.bookings
          .filter((b) => b.state === 'AWAITING_PAYMENT' && b.holdExpiresAt !== null && b.holdExpiresAt <= at)
          .filter((b) => {
            const lesson = lessonOf(b.id)!
            return lesson.tutorId === tutorId && lesson.state !== 'CANCELLED' && times.some((t) => overlaps(lesson, t))
          })
          .map((b) => b.id),
      }),
      // Weekly series are exercised over HTTP against both databases, not in this world.
      insertSeries: notFaked('bookings.insertSeries'),
      findSeries: notFaked('bookings.findSeries'),
      findBookingTeach: async (teachId, bookerId, subjectLevelId) => {
        const found = structuredClone(state.teaches.find((t) => t.teach.id === teachId && t.teach.enabled))
        if (!found) return undefined
        // Read before any check, as the real statement is: one not in the world yet is named only by id.
        const known = (personId: number): Person => state.people.find((p) => p.id === personId) ?? { id: personId, firstname: '', lastname: '', email: '', username: '', roleId: 1 }
        const { tutor, booker, subject } = setting({ id: 0, tutorId: found.teach.tutorId, subjectId: found.teach.subjectId, subjectLevelId }, bookerId, known)
        return { ...found, setting: { tutor, booker, subject, subjectLevel: { id: subjectLevelId, title: `Level ${subjectLevelId}` } } }
      },
      ownChildren: async (parentId, childIds) =>
        state.children.filter((c) => c.parentId === parentId && childIds.includes(c.id)).map(({ id: childId, firstname, lastname }) => ({ id: childId, firstname, lastname })),
      insert: async (draft) => {
        if (liveOf(draft.tutorId).some((l) => overlaps(l, draft))) return undefined
        const lessonId = id()
        const bookingId = id()
        state.lessons.push({
          id: lessonId,
          tutorId: draft.tutorId,
          studentId: draft.studentId,
          teachId: draft.teachId,
          subjectId: draft.subjectId,
          subjectLevelId: draft.subjectLevelId,
          examBoardId: draft.examBoardId,
          lessonType: draft.lessonType,
          state: 'ACTIVE',
          start: draft.start,
          finish: draft.finish,
          suggestedStart: null,
          suggestedFinish: null,
          proposedBy: null,
          proposalExpiresAt: null,
          address: draft.address,
          meetingUrl: draft.meetingUrl,
          experienceRating: null,
          cancelledAt: null,
          childIds: [...draft.childIds],
        })
        state.bookings.push({
          id: bookingId,
          lessonId,
          userId: draft.studentId,
          state: 'AWAITING_PAYMENT',
          holdExpiresAt: draft.holdExpiresAt,
          lessonPricePence: draft.lessonPricePence,
          serviceFeePence: draft.serviceFeePence,
          discountPence: draft.discountPence,
          totalPence: draft.totalPence,
          refundedPence: 0,
          couponUid: draft.couponUid,
          note: null,
          createdAt: draft.createdAt,
        })
        const { childIds: _children, ...lesson } = state.lessons.at(-1)!
        const event = { id: id(), kind: draft.event.kind, actorId: draft.event.actorId, data: draft.event.data, at: clock.now() }
        state.events.push({ ...event, bookingId })
        return structuredClone({ booking: state.bookings.at(-1)!, lesson, event })
      },
      findById: async (bookingId) => aggregate(bookingId),
      findByLessonId: async (lessonId) => {
        const booking = state.bookings.find((b) => b.lessonId === lessonId)
        return booking && aggregate(booking.id)
      },
      lockById: async (bookingId) => aggregate(bookingId),
      list: async (filter, page) => {
        const visible = state.bookings.filter((b) => {
          const lesson = lessonOf(b.id)!
          if (filter.bookerId !== undefined && b.userId !== filter.bookerId) return false
          return filter.partyId === undefined || [b.userId, lesson.tutorId, lesson.studentId].includes(filter.partyId)
        })
        const items = visible.slice((page.page - 1) * page.perPage, page.page * page.perPage).map((b) => aggregate(b.id)!)
        return { items, total: visible.length }
      },
      updateBooking: async (bookingId, patch) => {
        Object.assign(state.bookings.find((b) => b.id === bookingId)!, patch)
      },
      updateLesson: async (lessonId, patch) => {
        const lesson = state.lessons.find((l) => l.id === lessonId)!
        const moved = { start: patch.start ?? lesson.start, finish: patch.finish ?? lesson.finish }
        const clash = (patch.start || patch.finish) && liveOf(lesson.tutorId).some((l) => l.id !== lessonId && overlaps(l, moved))
        if (clash) return undefined
        const { cancelledBy: _by, ...rest } = patch
        Object.assign(lesson, rest)
        return true
      },
      addEvent: async (bookingId, kind, actorId, data = {}) => {
        const event = { id: id(), kind, actorId, data, at: clock.now() }
        state.events.push({ ...event, bookingId })
        return structuredClone(event)
      },
      claimLapsedHolds: async (at, limit) =>
        state.bookings
          .filter((b) => b.state === 'AWAITING_PAYMENT' && b.holdExpiresAt !== null && b.holdExpiresAt <= at && lessonOf(b.id)?.state !== 'CANCELLED')
          .slice(0, limit)
          .map((b) => b.id),
      claimExpiredProposals: async (at, limit) =>
        state.lessons
          .filter((l) => l.state === 'RESCHEDULE' && l.proposalExpiresAt !== null && l.proposalExpiresAt <= at)
          .slice(0, limit)
          .map((l) => state.bookings.find((b) => b.lessonId === l.id)!.id),
      claimHoursTaughtChanges: async (at, limit) =>
        state.lessons
          .filter((l) => (l.id in state.taughtAt ? l.state === 'CANCELLED' : l.state !== 'CANCELLED' && l.finish <= at))
          .slice(0, limit)
          .map((l) => structuredClone({ id: l.id, tutorId: l.tutorId, state: l.state, start: l.start, finish: l.finish, counted: l.id in state.taughtAt })),
      markTaught: async (lessonIds, at) => {
        for (const lessonId of lessonIds) {
          if (at === null) delete state.taughtAt[lessonId]
          else state.taughtAt[lessonId] = at
        }
      },
      addMinutesTaught: async (tutorId, minutes) => {
        state.minutesTaught[tutorId] = (state.minutesTaught[tutorId] ?? 0) + minutes
      },
      lessonsWith: async (tutorId, userId) =>
        state.bookings.flatMap((b) => {
          const lesson = lessonOf(b.id)!
          const counts = lesson.tutorId === tutorId && (b.userId === userId || lesson.studentId === userId) && ['PAYED', 'REQUIRES_CAPTURE'].includes(b.state) && lesson.state !== 'CANCELLED'
          return counts ? [{ finish: lesson.finish, bookingState: b.state }] : []
        }),
    },
    payments: {
      insert: async (p) => {
        const payment: BookingPayment = {
          id: id(),
          bookingId: p.bookingId,
          userId: p.userId,
          status: p.status,
          amountPence: p.amountPence,
          capturedPence: p.status === 'succeeded' ? p.amountPence : 0,
          refundedPence: 0,
          intentId: null,
          voidedIntentId: null,
          paymentMethodId: p.paymentMethodId,
          clientSecret: null,
          setupIntentId: null,
          redirectUrl: null,
          authorizeAt: p.authorizeAt,
          captureAt: p.captureAt,
          lastError: null,
          routing: null,
          dispute: null,
          failedAttempts: 0,
          retryAt: null,
          createdAt: clock.now(),
        }
        state.payments.push(payment)
        return structuredClone(payment)
      },
      findById: async (paymentId) => structuredClone(state.payments.find((p) => p.id === paymentId)),
      listByBooking: async (bookingId) => structuredClone(state.payments.filter((p) => p.bookingId === bookingId)),
      update: async (paymentId, patch) => {
        Object.assign(state.payments.find((p) => p.id === paymentId)!, patch)
      },
      claimDue: async (kind, at) =>
        structuredClone(
          kind === 'authorize'
            ? state.payments.find((p) => p.status === 'scheduled' && p.authorizeAt !== null && p.authorizeAt <= at && retryDue(p, at))
            : kind === 'authentication'
              ? state.payments.find((p) => ['requires_payment_method', 'requires_action'].includes(p.status) && p.authorizeAt !== null && p.authorizeAt <= at)
              : state.payments.find((p) => p.status === 'requires_capture' && p.captureAt !== null && p.captureAt <= at && retryDue(p, at)),
        ),
      defaultPaymentMethodOf: async (userId) => state.defaultCards.find((c) => c.userId === userId)?.paymentMethodId ?? null,
      list: async (filter, page) => {
        const mine = state.payments.filter((p) => filter.userId === undefined || p.userId === filter.userId).reverse()
        return { items: structuredClone(mine.slice((page.page - 1) * page.perPage, page.page * page.perPage)), total: mine.length }
      },
    },
    paymentEvents: {
      lockById: async (paymentId) => paymentRecord(state.payments.find((x) => x.id === paymentId), (id) => lessonOf(id)?.tutorId),
      lockByIntentId: async (intentId) => paymentRecord(state.payments.find((x) => x.intentId === intentId), (id) => lessonOf(id)?.tutorId),
      lockBySetupIntentId: async (setupIntentId) => paymentRecord(state.payments.find((x) => x.setupIntentId === setupIntentId), (id) => lessonOf(id)?.tutorId),
      update: async (paymentId, { at: _at, ...change }) => {
        const p = state.payments.find((x) => x.id === paymentId)!
        Object.assign(p, Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)))
      },
      lockBooking: async (bookingId) => {
        const b = state.bookings.find((x) => x.id === bookingId)
        return b && { id: b.id, state: b.state, lessonState: lessonOf(b.id)!.state }
      },
      setBookingState: async (bookingId, to) => {
        state.bookings.find((b) => b.id === bookingId)!.state = to
      },
      addBookingEvent: async (event) => {
        state.events.push({ id: id(), bookingId: event.bookingId, kind: event.kind, actorId: null, data: event.data, at: event.at })
      },
    },
    payoutAccounts: payoutAccountsOf(state),
    failingPayments: {
      list: async () =>
        state.payments
          .filter((p) => p.failedAttempts > 0 && dueWorkOf(p) !== null)
          .map((p) => ({ id: p.id, bookingId: p.bookingId, work: dueWorkOf(p)!, attempts: p.failedAttempts, retryAt: p.retryAt, lastError: p.lastError })),
      retryNow: async (paymentId, now) => {
        const payment = state.payments.find((p) => p.id === paymentId && p.failedAttempts > 0 && dueWorkOf(p) !== null)
        if (payment) payment.retryAt = now
        return payment !== undefined
      },
    },
    tutorTransfers: {
      insertWaiting: async (row) => {
        if (!state.tutorTransfers.some((t) => t.paymentId === row.paymentId)) state.tutorTransfers.push({ id: id(), ...row, status: 'waiting' })
      },
      claimReady: async (tutorId, now, limit) => {
        const enabled = (userId: number) => state.payoutAccounts.some((a) => a.userId === userId && a.payoutsEnabled)
        const ready = state.tutorTransfers
          .filter((t) => t.status === 'waiting' && (tutorId === null || t.tutorId === tutorId) && enabled(t.tutorId))
          .filter((t) => {
            const p = state.payments.find((x) => x.id === t.paymentId)
            const lesson = p && lessonOf(p.bookingId)
            return p?.status === 'succeeded' && (p.amountPence > 0 || (lesson !== undefined && lesson.state !== 'CANCELLED' && lesson.finish <= now))
          })
          .slice(0, limit)
        for (const t of ready) t.status = 'queued'
        return ready.map((t) => t.id)
      },
      recordPayout: async (payout) => {
        const known = state.payouts.find((p) => p.id === payout.id)
        if (known && (known.status === 'failed' || known.status === payout.status)) return false
        if (known) Object.assign(known, payout)
        else state.payouts.push({ ...payout })
        return true
      },
      contactOf: async (userId) => {
        const found = state.people.find((p) => p.id === userId)
        return found && { email: found.email, firstname: found.firstname }
      },
    },
    paymentCustomers: paymentCustomersOf(state),
    coupons: {
      findByUid: async (uid) => structuredClone(state.coupons.find((c) => c.uid === uid && c.active)),
      redeemedBy: async (couponId, userId) => state.redemptions.filter((r) => r.couponId === couponId && r.userId === userId).length,
      redeem: async ({ useNumber, ...redemption }) => {
        // The unique (coupon, user, use number) of the database: a number taken is refused.
        if (state.redemptions.filter((r) => r.couponId === redemption.couponId && r.userId === redemption.userId).length >= useNumber) return false
        state.redemptions.push(redemption)
        state.coupons.find((c) => c.id === redemption.couponId)!.timesRedeemed++
        return true
      },
      list: async (_page, now) => {
        const live = state.coupons.filter((c) => c.active && (c.expiresAt === null || c.expiresAt > now))
        return { items: structuredClone(live), total: live.length }
      },
    },
    catalog: {
      subjects: async () => [],
      subjectLevels: async () => [],
      examBoards: async () => [],
      countries: async () => [],
      languages: async () => [],
      lessonLocations: async () => [],
      cancellationPolicy: async () => structuredClone(state.cancellationPolicy),
      lessonPriceSettings: async () => ({ minHourlyRatePence: 500, maxHourlyRatePence: 50_000, defaultHourlyRatePence: 2500 }),
      activeServiceNotices: async () => [],
    },
    // Reminders are a database job, tested against both databases (http/test/reminders.test.ts).
    reminders: { listCandidates: notFaked('reminders.listCandidates'), record: notFaked('reminders.record') },
    outbox: outboxOf(state),
    integrationEvents: integrationEventsOf(state),
    webhookEvents: webhookEventLogOf(state),
    bookableTeaches: { findBookableTeach: async (teachId) => structuredClone(state.teaches.find((t) => t.teach.id === teachId && t.teach.enabled)) },
    slotFacts: {
      forTutor: async (tutorId, range) => factsOf(tutorId, range),
      forTeach: async (teachId, range) => {
        const found = structuredClone(state.teaches.find((t) => t.teach.id === teachId && t.teach.enabled))
        return found && { ...found, facts: factsOf(found.teach.tutorId, range) }
      },
    },
    calendarFeeds: { findForTutor: async () => null, setForTutor: async () => {} },
  }

  const clock: FakeClock = fakeClock(now)
  const processor = fakePaymentProcessor()
  const knownPostcodes = new Map<string, GeoPoint>()
  const deps: BookingDeps & BookingPaymentsDeps = {
    uow: memoryUnitOfWork(repos, state),
    clock,
    processor,
    links: {
      signedUrl: (path, params) => `https://app.test${path}?${new URLSearchParams(params)}&signature=test`,
      url: (path) => `https://app.test${path}`,
      bookingSecretUrl: (path, grant) => `https://app.test${path}?secret=test-${grant.userId}-${grant.bookingId}`,
    },
    ids: { uuid: () => `room-${state.nextId}` },
    config: {
      holdMinutes: 15,
      serviceFeePercent: 10,
      meetingBaseUrl: 'https://meet.test/',
      reminderOffsetsMinutes: [1440, 60],
      paymentReturnUrl: 'https://app.test/return',
      paymentActionUrl: 'https://app.test/pay',
      internalMailbox: 'staff@app.test',
    },
    availability: {
      postcodes: {
        parse: (text) => {
          const compact = text.replace(/\s+/g, '').toUpperCase()
          return /^[A-Z]{1,2}\d[A-Z\d]?\d[A-Z]{2}$/.test(compact) ? { postcode: `${compact.slice(0, -3)} ${compact.slice(-3)}`, outcode: compact.slice(0, -3) } : undefined
        },
      },
      geocoder: { locate: async (postcode) => knownPostcodes.get(postcode) },
      travel: { between: async (_origin, places) => ({ to: places.map(() => 0), from: places.map(() => 0) }) },
      calendar: { busyBetween: async () => [] },
      config: { serviceFeePercent: 10 },
    },
  }

  /**
   * The outbox worker's side of booking money (the adapters' payment settlement handlers, in
   * memory): each queued processor sync (refund, capture of the kept part, cancel) is sent
   * once per dedupe key, its row written after the processor answered; one that throws stays
   * failing and is tried again by the next drain. `write` runs each row change, so a test can
   * put it behind the transactions it serialises.
   */
  const sync = { done: new Set<string>(), failing: new Map<string, string>() }
  const settle = async (message: { topic: string; data: Record<string, unknown> }, processor: BookingPaymentsDeps['processor'], write: (change: () => void) => Promise<void>) => {
    const row = () => state.payments.find((p) => p.id === Number(message.data.paymentId))
    const payment = row()
    if (!payment) return
    if (message.topic === PAYMENT_SYNC_TOPICS.refund) {
      if (!payment.intentId) return
      const refund = await processor.refundPayment(payment.intentId, { amountPence: Number(message.data.amountPence), idempotencyKey: `${message.topic}:${payment.id}` })
      await write(() => Object.assign(row()!, { refundedPence: refund.amountPence }))
    } else if (message.topic === PAYMENT_SYNC_TOPICS.capture) {
      if (!payment.intentId) return
      const current = await processor.retrievePaymentIntent(payment.intentId)
      const pi =
        current.status === 'requires_capture'
          ? await processor.capturePaymentIntent(payment.intentId, { amountPence: Number(message.data.amountPence), idempotencyKey: `${message.topic}:${payment.id}` })
          : current
      await write(() => Object.assign(row()!, { status: pi.status, capturedPence: pi.amountReceivedPence, captureAt: null }))
    } else if (message.topic === PAYMENT_SYNC_TOPICS.cancel) {
      const named = typeof message.data.intentId === 'string' ? message.data.intentId : null
      if (named && named !== payment.intentId) {
        const other = await processor.retrievePaymentIntent(named)
        if (other.status !== 'canceled' && other.status !== 'succeeded') await processor.cancelPaymentIntent(named, { idempotencyKey: `${message.topic}:${payment.id}:${named}` })
        return
      }
      let intentId = payment.intentId
      if (!intentId) {
        if (payment.status !== 'requires_confirmation' && message.data.unanswered !== true) return
        const found = await processor.findPaymentIntentByPaymentId(payment.id)
        if (!found) {
          await write(() => {
            if (row()!.intentId === null) Object.assign(row()!, { status: 'canceled', authorizeAt: null, captureAt: null })
          })
          return
        }
        intentId = found.id
        await write(() => Object.assign(row()!, { intentId }))
      }
      const current = await processor.retrievePaymentIntent(intentId)
      const pi = current.status === 'canceled' || current.status === 'succeeded' ? current : await processor.cancelPaymentIntent(intentId, { idempotencyKey: `${message.topic}:${payment.id}` })
      await write(() => Object.assign(row()!, { status: pi.status, captureAt: null }))
    }
  }
  const drainProcessorSync = async (
    processor: BookingPaymentsDeps['processor'] = deps.processor,
    write: (change: () => void) => Promise<void> = async (change) => change(),
  ): Promise<{ failing: Array<{ key: string; error: string }> }> => {
    const topics: readonly string[] = Object.values(PAYMENT_SYNC_TOPICS)
    for (const [i, message] of [...state.outbox].entries()) {
      if (message.kind !== 'processor_sync' || !topics.includes(message.topic)) continue
      const key = message.dedupeKey ?? `#${i}`
      if (sync.done.has(key)) continue
      sync.done.add(key)
      try {
        await settle(message, processor, write)
        sync.failing.delete(key)
      } catch (error) {
        sync.done.delete(key)
        sync.failing.set(key, error instanceof Error ? error.message : String(error))
      }
    }
    return { failing: [...sync.failing].map(([key, error]) => ({ key, error })) }
  }

  const addPerson = (roleId: RoleId, overrides: Partial<Person> = {}): Person => {
    const personId = overrides.id ?? id()
    const created: Person = { id: personId, firstname: `First${personId}`, lastname: `Last${personId}`, email: `user${personId}@example.com`, username: `user${personId}`, roleId, ...overrides }
    state.people.push(created)
    return created
  }

  return {
    state,
    repos,
    deps,
    clock,
    processor,
    addStudent: (overrides: Partial<Person> = {}) => addPerson(ROLE_IDS.student, overrides),
    addParent: (overrides: Partial<Person> = {}) => addPerson(ROLE_IDS.parent, overrides),
    addStaff: (overrides: Partial<Person> = {}) => addPerson(ROLE_IDS.internal, overrides),
    addChild: (parentId: number) => {
      const child = { id: id(), parentId, firstname: 'Child', lastname: 'Of' }
      state.children.push(child)
      return child
    },
    /**
     * A tutor with one enabled teach (subject 1, levels 1 and 2, exam board 1, £25 an hour),
     * available every day 09:00-17:00 London time for every lesson type, based in Westminster
     * and travelling 10 miles; verified and trialing, so bookable unless `tutor` says otherwise.
     */
    addTutor: (
      overrides: { hourlyRatePence?: number; schedule?: Partial<Pick<DaySchedule, 'slots' | 'lessonTypes' | 'bufferMinutes'>>; tutor?: Partial<TutorBookability> } = {},
    ) => {
      const tutor = addPerson(ROLE_IDS.tutor)
      const teach = { id: id(), tutorId: tutor.id, subjectId: 1, subjectLevelIds: [1, 2], examBoardIds: [1], hourlyRatePence: overrides.hourlyRatePence ?? 2500, enabled: true, createdAt: clock.now() }
      const bookability: TutorBookability = {
        verifications: { identity: 'PASS', dbs: 'PASS', qualification: 'PASS' },
        subscriptionStatus: 'trialing',
        ...overrides.tutor,
      }
      state.teaches.push({ teach, tutor: bookability, timeZone: 'Europe/London', calendarFeedUrl: null })
      for (const day of DAY_NAMES) {
        state.schedules.push({
          id: id(),
          tutorId: tutor.id,
          day,
          slots: [{ from: '09:00', to: '17:00' }],
          lessonTypes: ['tutors_home', 'students_home', 'online'],
          bufferMinutes: 0,
          subjectId: null,
          subjectLevelId: null,
          examBoardId: null,
          ...overrides.schedule,
        })
      }
      state.locations.push({ id: id(), tutorId: tutor.id, postcode: 'SW1A 1AA', outcode: 'SW1A', lat: 51.501, lng: -0.1416, travelDistanceMiles: 10 })
      return { tutor, teach }
    },
    addCoupon: (coupon: Partial<StoredCoupon> & Pick<StoredCoupon, 'uid' | 'discount'>) => {
      const stored: StoredCoupon = { id: id(), active: true, expiresAt: null, maxRedemptions: null, timesRedeemed: 0, maxRedemptionsPerUser: null, ...coupon }
      state.coupons.push(stored)
      return stored
    },
    /** The geocoder knows this postcode (normalised, "SW1A 1AA") at this point. */
    knowPostcode: (postcode: string, point: GeoPoint) => knownPostcodes.set(postcode, point),
    saveDefaultCard: (userId: number, paymentMethodId: string) => state.defaultCards.push({ userId, paymentMethodId }),
    booking: (bookingId: number) => aggregate(bookingId),
    drainProcessorSync,
  }
}

export type BookingWorld = ReturnType<typeof bookingWorld>
