import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addTutors, aSearchableTutor, catalogOf, testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from '../support/harness'
import { recordFinding, Tally } from '../support/findings'

type Answer = { status: number; body: { data?: { id: number; receipt: { discount_amount: string } }; code?: string } }
type Session = Awaited<ReturnType<TestContext['register']>>

const HOUR = 3_600_000

/**
 * Issue 13: per-user limits broke under concurrency on PostgreSQL. One student's 6 bookings
 * of 6 tutors at the same instant got 6 holds (limit 3), and 3 uses of a once-per-user coupon
 * at once gave 3 discounts. CONTRACT §14: both hold whatever the timing. Real parallel
 * requests through a listening server; on the embedded database they are serialised anyway.
 */
describe.each(testDatabaseKinds())('per-user limits under concurrent requests, on %s', (kind) => {
  let t: TestContext
  let url = ''
  let teaches: Array<{ id: number; levelId: number }> = []

  beforeAll(async () => {
    t = await createTestContext(kind)
    url = await t.listen()
    const catalog = await catalogOf(t)
    const ids = await addTutors(t, Array.from({ length: 6 }, (_, i) => aSearchableTutor(catalog, { lastname: `Parallel ${i}` })))
    teaches = []
    for (const tutorId of ids) {
      const row = await t.db.selectFrom('teaches').select('id').where('tutor_id', '=', tutorId).executeTakeFirstOrThrow()
      const level = await t.db.selectFrom('teach_subject_levels').select('subject_level_id').where('teach_id', '=', row.id).executeTakeFirstOrThrow()
      teaches.push({ id: Number(row.id), levelId: level.subject_level_id })
    }
  })
  afterAll(() => t.close())

  /** 10:00 UTC `days` ahead: inside every demo tutor's 09:00-17:00 London, in summer and winter. */
  const hourAhead = (days: number) => {
    const start = new Date(`${new Date(Date.now() + days * 24 * HOUR).toISOString().slice(0, 10)}T10:00:00Z`)
    return { start: start.toISOString(), finish: new Date(start.getTime() + HOUR).toISOString() }
  }

  const post = async (session: Session, path: string, body: unknown): Promise<Answer> => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return { status: res.status, body: (await res.json()) as Answer['body'] }
  }
  const book = (session: Session, teach: { id: number; levelId: number }, days: number, extra: Record<string, unknown> = {}) =>
    post(session, '/api/bookings', { teach_id: teach.id, subject_level_id: teach.levelId, lesson_type: 3, ...hourAhead(days), ...extra })

  async function onceCoupon(): Promise<string> {
    const uid = `ONCE${Date.now().toString(36).toUpperCase()}${Math.floor(Math.random() * 1e6)}`
    await t.db.insertInto('coupons').values({ uid, percent_off_bp: 2000, amount_off_pence: null, expires_at: null, max_redemptions: 1000, max_per_user: 1 }).execute()
    return uid
  }

  it('lets one student hold three unpaid bookings, not six, when six arrive at once', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Limits: per-user limits under concurrency',
      tried: "6 simultaneous bookings of 6 tutors by one student; 3 simultaneous bookings and 2 simultaneous payments with a once-per-user coupon",
      held: 'exactly 3 holds (the rest 422 too_many_pending_bookings); exactly 1 discount (the rest 422 coupon_invalid), one redemption row',
    })
    const tally = new Tally()
    const student = await t.register('student')
    const answers = await Promise.all(teaches.map((teach) => book(student, teach, 2)))
    answers.forEach((a) => tally.send(a))
    const statuses = answers.map((a) => a.status).sort()
    expect(statuses).toEqual([201, 201, 201, 422, 422, 422])
    expect(answers.filter((a) => a.status === 422).map((a) => a.body.code)).toEqual(['too_many_pending_bookings', 'too_many_pending_bookings', 'too_many_pending_bookings'])
    const held = await t.db.selectFrom('bookings').select('id').where('user_id', '=', student.user.id).execute()
    expect(held).toHaveLength(3)
    finding.figures = { requests: tally.requests, 'limits reached': tally.limitsReached }
  })

  it('gives a once-per-user coupon once when three bookings use it at the same instant', async ({ task }) => {
    recordFinding(task, {
      class: 'Limits: per-user limits under concurrency',
      tried: "6 simultaneous bookings of 6 tutors by one student; 3 simultaneous bookings and 2 simultaneous payments with a once-per-user coupon",
      held: 'exactly 3 holds (the rest 422 too_many_pending_bookings); exactly 1 discount (the rest 422 coupon_invalid), one redemption row',
    })
    const coupon = await onceCoupon()
    const student = await t.register('student')
    const answers = await Promise.all(teaches.slice(0, 3).map((teach) => book(student, teach, 3, { coupon })))
    const created = answers.filter((a) => a.status === 201)
    expect(created).toHaveLength(1)
    expect(created[0]!.body.data!.receipt.discount_amount).not.toBe('0.00')
    expect(answers.filter((a) => a.status !== 201).map((a) => [a.status, a.body.code])).toEqual([
      [422, 'coupon_invalid'],
      [422, 'coupon_invalid'],
    ])
    const redemptions = await t.db.selectFrom('coupon_redemptions as r').innerJoin('coupons as c', 'c.id', 'r.coupon_id').select('r.id').where('c.uid', '=', coupon).execute()
    expect(redemptions).toHaveLength(1)
  })

  it('gives a once-per-user coupon once when two payments use it at the same instant', async ({ task }) => {
    recordFinding(task, {
      class: 'Limits: per-user limits under concurrency',
      tried: "6 simultaneous bookings of 6 tutors by one student; 3 simultaneous bookings and 2 simultaneous payments with a once-per-user coupon",
      held: 'exactly 3 holds (the rest 422 too_many_pending_bookings); exactly 1 discount (the rest 422 coupon_invalid), one redemption row',
    })
    const coupon = await onceCoupon()
    const student = await t.register('student')
    const first = await book(student, teaches[3]!, 4)
    const second = await book(student, teaches[4]!, 4)
    expect([first.status, second.status]).toEqual([201, 201])
    const answers = await Promise.all(
      [first, second].map((b) => post(student, '/api/payments/pay', { booking_id: b.body.data!.id, payment_method: 'pm_card_visa', coupon })),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422])
    expect(answers.find((a) => a.status === 422)!.body.code).toBe('coupon_invalid')
    const redemptions = await t.db.selectFrom('coupon_redemptions as r').innerJoin('coupons as c', 'c.id', 'r.coupon_id').select('r.booking_id').where('c.uid', '=', coupon).execute()
    expect(redemptions).toHaveLength(1)
    const discounted = await t.db.selectFrom('bookings').select(['id', 'discount_pence']).where('user_id', '=', student.user.id).where('discount_pence', '>', 0).execute()
    expect(discounted.map((b) => b.id)).toEqual([Number(redemptions[0]!.booking_id)])
  })
})
