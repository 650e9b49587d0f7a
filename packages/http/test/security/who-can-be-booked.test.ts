import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addSearchableTutor, catalogOf, testDatabaseKinds } from '@tutoring/adapters/testing'
import type { DemoTutor } from '@tutoring/testkit/demo'
import { createTestContext, type TestContext } from '../support/harness'
import { recordFinding, Tally } from '../support/findings'

type One<T> = { data: T }
type List<T> = { data: T[]; meta: { total: number } }
type Day = { date: string; times: Array<{ start: string }> }
type Problem = { code: string }
type Session = Awaited<ReturnType<TestContext['register']>>

const HOUR = 3_600_000

/**
 * Issue 13: unverified and unsubscribed tutors could be booked, a safeguarding gap (the DBS
 * check exists for this). CONTRACT §14: availability and booking need identity, DBS and
 * qualification passed and a trialing or active subscription; for any other tutor the teach
 * is not found (404, as an unknown teach). Public `/api/teaches` lists only bookable tutors'.
 * Visibility and a complete profile gate search only; lessons already booked stay.
 */
describe.each(testDatabaseKinds())('who can be booked, on %s', (kind) => {
  let t: TestContext
  let student: Session
  let catalog: Awaited<ReturnType<typeof catalogOf>>

  beforeAll(async () => {
    t = await createTestContext(kind)
    student = await t.register('student')
    catalog = await catalogOf(t)
  })
  afterAll(() => t.close())

  /** A tutor written straight into the tables, and their one teach with one of its levels. */
  async function tutorWithTeach(overrides: Partial<DemoTutor> = {}) {
    const tutorId = await addSearchableTutor(t, catalog, overrides)
    const row = await t.db.selectFrom('teaches').select('id').where('tutor_id', '=', tutorId).executeTakeFirstOrThrow()
    const level = await t.db.selectFrom('teach_subject_levels').select('subject_level_id').where('teach_id', '=', row.id).executeTakeFirstOrThrow()
    return { tutorId, teachId: Number(row.id), levelId: level.subject_level_id }
  }

  /** An hour two days ahead, 10:00 London, which the demo schedule (09:00-17:00 daily) offers. */
  const twoDaysAhead = () => {
    const day = new Date(Date.now() + 2 * 24 * HOUR).toISOString().slice(0, 10)
    // 10:00 London is 09:00 or 10:00 UTC; 10:00 UTC lies in the window either way.
    const start = new Date(`${day}T10:00:00Z`)
    return { start: start.toISOString(), finish: new Date(start.getTime() + HOUR).toISOString() }
  }

  const availability = (teachId: number) => t.request<One<{ availabilities: Day[] }>>('GET', `/api/availabilites?teach_id=${teachId}`)
  const legacyAvailability = (teachId: number) =>
    t.request<One<{ availabilities: Day[] }>>('GET', `/api/v1/availabilities/search?teach_id=${teachId}`, { token: student.token })
  const book = (teach: { teachId: number; levelId: number }, times = twoDaysAhead()) =>
    t.request<One<{ id: number; lesson: { id: number; state: number } }> & Problem>('POST', '/api/bookings', {
      token: student.token,
      body: { teach_id: teach.teachId, subject_level_id: teach.levelId, lesson_type: 3, ...times },
    })
  const listed = async (tutorId: number) => (await t.request<List<{ id: number }>>('GET', `/api/teaches?tutor_id=${tutorId}`)).body.data.map((x) => x.id)

  const NOT_BOOKABLE: Array<[string, Partial<DemoTutor>]> = [
    ['identity pending', { verifications: { identity: 'PENDING', dbs: 'PASS', qualification: 'PASS' } }],
    ['DBS failed', { verifications: { identity: 'PASS', dbs: 'FAIL', qualification: 'PASS' } }],
    ['DBS never submitted', { verifications: { identity: 'PASS', dbs: 'NONE', qualification: 'PASS' } }],
    ['qualification under internal review', { verifications: { identity: 'PASS', dbs: 'PASS', qualification: 'INTERNAL_REVIEW' } }],
    ['subscription canceled', { subscriptionStatus: 'canceled' }],
    ['subscription payment failed (incomplete)', { subscriptionStatus: 'incomplete' }],
    ['no subscription', { subscriptionStatus: null }],
  ]

  it.for(NOT_BOOKABLE)('answers 404 for a tutor with %s, as for an unknown teach, and lists none of their teaches', async ([condition, overrides], { task }) => {
    const finding = recordFinding(task, {
      class: 'Safety: unverified or unsubscribed tutors booked',
      tried: 'availability (public and legacy), booking and the public teaches list for tutors each missing one verification or a valid subscription',
      held: '404 not_found alike for every such tutor and for an unknown teach; their teaches not listed; no booking written',
    })
    const tally = new Tally()
    const teach = await tutorWithTeach(overrides)
    const unknown = tally.send(await availability(2_000_000_000))
    expect(unknown.status).toBe(404)

    const open = tally.send(await availability(teach.teachId))
    expect(open.status, condition).toBe(404)
    expect(open.body).toEqual(unknown.body)
    const legacy = tally.send(await legacyAvailability(teach.teachId))
    expect(legacy.status).toBe(404)
    expect((legacy.body as unknown as Problem).code).toBe('not_found')
    const booked = tally.send(await book(teach))
    expect(booked.status, booked.text).toBe(404)
    expect(booked.body.code).toBe('not_found')
    expect(tally.send(await book({ ...teach, teachId: 2_000_000_000 })).body).toEqual(booked.body)
    expect(await listed(teach.tutorId)).toEqual([])
    const lessons = await t.db.selectFrom('lessons').select('id').where('tutor_id', '=', teach.tutorId).execute()
    expect(lessons).toEqual([])
    finding.figures = { requests: tally.requests, 'refused 404': tally.limitsReached }
  })

  it('books a verified, subscribed tutor who is hidden from search with an incomplete profile', async ({ task }) => {
    recordFinding(task, {
      class: 'Safety: unverified or unsubscribed tutors booked',
      tried: 'a verified, subscribed tutor, hidden and with no bio or video',
      held: 'availability 200, booking 201, teach listed: visibility gates search only',
    })
    const teach = await tutorWithTeach({ isVisible: false, bio: null, hasVideo: false, subscriptionStatus: 'active' })
    expect((await availability(teach.teachId)).status).toBe(200)
    expect((await legacyAvailability(teach.teachId)).status).toBe(200)
    const booked = await book(teach)
    expect(booked.status, booked.text).toBe(201)
    expect(await listed(teach.tutorId)).toEqual([teach.teachId])
  })

  it('keeps lessons already booked when a tutor stops being bookable, and takes no new ones', async ({ task }) => {
    recordFinding(task, {
      class: 'Safety: unverified or unsubscribed tutors booked',
      tried: "a tutor's DBS overturned to FAIL, then the subscription canceled, after a lesson was booked",
      held: 'the booked lesson stays visible and ACTIVE; availability and new bookings 404 until both are restored',
    })
    const teach = await tutorWithTeach()
    const first = await book(teach)
    expect(first.status, first.text).toBe(201)

    await t.db.updateTable('verifications').set({ status: 'FAIL' }).where('user_id', '=', teach.tutorId).where('kind', '=', 'dbs').execute()
    expect((await availability(teach.teachId)).status).toBe(404)
    const later = twoDaysAhead()
    const moved = { start: new Date(Date.parse(later.start) + 2 * HOUR).toISOString(), finish: new Date(Date.parse(later.finish) + 2 * HOUR).toISOString() }
    expect((await book(teach, moved)).status).toBe(404)
    const kept = await t.request<One<{ id: number; lesson: { state: number } }>>('GET', `/api/bookings/${first.body.data.id}`, { token: student.token })
    expect(kept.status).toBe(200)
    expect(kept.body.data.lesson.state).toBe(1)

    await t.db.updateTable('verifications').set({ status: 'PASS' }).where('user_id', '=', teach.tutorId).execute()
    await t.db.updateTable('subscriptions').set({ status: 'canceled' }).where('user_id', '=', teach.tutorId).execute()
    expect((await availability(teach.teachId)).status).toBe(404)
    expect(await listed(teach.tutorId)).toEqual([])

    await t.db.updateTable('subscriptions').set({ status: 'active' }).where('user_id', '=', teach.tutorId).execute()
    expect((await availability(teach.teachId)).status).toBe(200)
    expect((await book(teach, moved)).status).toBe(201)
  })
})
