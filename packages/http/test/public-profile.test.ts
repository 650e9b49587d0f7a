import { countHoursTaught } from '@tutoring/domain/booking'
import { runDuePayments } from '@tutoring/domain/booking-payments'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SAMPLES, testDatabaseKinds } from '@tutoring/adapters/testing'
import { fakeClock } from '@tutoring/testkit'
import { createTestContext, type TestContext } from './support/harness'
import { upload } from './support/uploads'

type One<T> = { data: T }
type Session = { token: string; user: { id: number }; email: string }
type Profile = Record<string, unknown> & { username: string }

const HOUR = 3_600_000

/**
 * CONTRACT §14 "Public tutor profile": every field is read from what was written. The walk
 * writes one kind of record at a time through the API and sees the profile change with it.
 */
describe.each(testDatabaseKinds())('the public tutor profile on %s', (kind) => {
  let t: TestContext
  const base = new Date(Math.ceil(Date.now() / HOUR) * HOUR)
  const clock = fakeClock(base)
  let staff: Session

  beforeAll(async () => {
    t = await createTestContext(kind, {}, { clock })
    staff = await t.internalUser()
  })
  afterAll(() => t.close())

  const profileOf = async (id: number) => {
    const res = await t.request<One<Profile>>('GET', `/api/tutors/${id}/profile`)
    expect(res.status, res.text).toBe(200)
    return res.body.data
  }

  it('changes with each kind of record the tutor writes', async () => {
    const tutor: Session = await t.register('tutor', { firstname: 'Ada', lastname: 'lovelace' })
    const id = tutor.user.id
    const bare = await profileOf(id)
    expect(bare).toMatchObject({
      id,
      firstname: 'Ada',
      lastname: 'L.',
      profile_picture_url: null,
      bio: null,
      verification: { identity: false, dbs: false, qualification: false },
      location: null,
      education: [],
      languages: [],
      tutoring_experience: null,
      teaching_experience: { qualified_teacher: false, professions: [] },
      overall_rating: null,
      review_count: 0,
      hours_taught: 0,
      social_links: [],
      teaches: [],
    })

    const education = { institution: 'University of Leeds', qualification: 'BSc', subject: 'Mathematics', start_year: 2012, end_year: 2015 }
    expect((await t.request('POST', '/api/v1/education', { token: tutor.token, body: education })).status).toBe(201)
    expect((await profileOf(id)).education).toEqual([education])

    const link = { platform: 'linkedin', url: 'https://www.linkedin.com/in/ada' }
    expect((await t.request('POST', '/api/social-links', { token: tutor.token, body: link })).status).toBe(201)
    expect((await profileOf(id)).social_links).toEqual([link])

    const job = { title: 'Head of Mathematics', organisation: 'Leeds Grammar School', start_date: '2016-09-01', end_date: null, description: 'Ran the department.' }
    expect((await t.request('POST', '/api/v1/professions', { token: tutor.token, body: job })).status).toBe(201)
    expect((await profileOf(id)).teaching_experience).toEqual({
      qualified_teacher: false,
      professions: [{ title: 'Head of Mathematics', organisation: 'Leeds Grammar School', start_date: '2016-09-01', end_date: null }],
    })

    const english = await t.db.selectFrom('languages').select(['id', 'code', 'name']).where('code', '=', 'en').executeTakeFirstOrThrow()
    const details = await t.request<{ data: Array<{ id: number }> }>('GET', '/api/v1/personal-details', { token: tutor.token })
    const changed = await t.request('PUT', `/api/v1/personal-details/${details.body.data[0]!.id}`, { token: tutor.token, body: { language_ids: [english.id] } })
    expect(changed.status, changed.text).toBe(200)
    expect((await profileOf(id)).languages).toEqual([english])

    const profiles = await t.request<{ data: Array<{ id: number }> }>('GET', '/api/v1/profiles', { token: tutor.token })
    const bio = { bio: 'I teach maths.', tutoring_experience_months: 26, teacher_reference_number: 'RP12345' }
    expect((await t.request('PUT', `/api/v1/profiles/${profiles.body.data[0]!.id}`, { token: tutor.token, body: bio })).status).toBe(200)
    expect(await profileOf(id)).toMatchObject({ bio: 'I teach maths.', tutoring_experience: '2 years 2 months', teaching_experience: { qualified_teacher: true } })

    const picture = await upload(t, `/api/v1/users/${id}/profile/image`, SAMPLES.png, { token: tutor.token, name: 'me.png' })
    expect(picture.status, picture.text).toBe(200)
    expect((await profileOf(id)).profile_picture_url).toBe(`http://api.test/api/resources/profile-image/${id}`)

    const located = await t.request('POST', '/api/v1/locations', { token: tutor.token, body: { postcode: 'LS1 4AP', lat: 53.79648, lng: -1.54785, travel_distance_miles: 4 } })
    expect(located.status, located.text).toBe(201)
    expect((await profileOf(id)).location).toEqual({ postcode_district: 'LS1', lat: 53.8, lng: -1.55, travel_distance_miles: 4 })

    const maths = await t.db.selectFrom('subjects').select('id').where('title', '=', 'Mathematics').executeTakeFirstOrThrow()
    const gcse = await t.db.selectFrom('subject_levels').select('id').where('title', '=', 'GCSE').executeTakeFirstOrThrow()
    const teach = await t.request<One<{ id: number }>>('POST', '/api/v1/teaches', { token: tutor.token, body: { subject_id: maths.id, subject_level_ids: [gcse.id], hourly_rate: '30.00' } })
    expect(teach.status).toBe(201)
    // A teach is public once its tutor may be booked (every check passed, CONTRACT §14).
    expect((await profileOf(id)).teaches).toEqual([])

    // Verifications: DBS and qualification through their documents and staff's review, identity as the provider's webhook leaves it.
    for (const kind of ['dbs', 'qualification'] as const) {
      expect((await upload(t, `/api/v1/verification/${kind}`, SAMPLES.pdf, { token: tutor.token, name: `${kind}.pdf` })).status).toBe(201)
      const reviewed = await t.request('PUT', `/api/tutors/${id}/verifications/${kind}`, { token: staff.token, body: { status: 'PASS' } })
      expect(reviewed.status, reviewed.text).toBe(200)
    }
    expect((await profileOf(id)).verification).toEqual({ identity: false, dbs: true, qualification: true })
    await t.db
      .insertInto('verifications')
      .values({ user_id: id, kind: 'identity', status: 'PASS', reference: `idv_${id}`, redirect_url: null, document_file_id: null, certificate_number: null, issue_date: null, reviewed_by: null })
      .execute()
    expect(await profileOf(id)).toMatchObject({ verification: { identity: true, dbs: true, qualification: true }, verification_status: 'verified' })
    expect((await profileOf(id)).teaches).toEqual([expect.objectContaining({ id: teach.body.data.id, subject: { id: maths.id, title: 'Mathematics' }, hourly_rate: '30.00' })])

    // A lesson taught, then reviewed: hours taught once it finishes (the worker counts it), the rating with the review.
    for (const day of ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY']) {
      await t.request('POST', '/api/v1/day-availabilities', { token: tutor.token, body: { day, slots: [{ from: '00:00', to: '24:00' }], lesson_types: ['online'], buffer_minutes: 0 } })
    }
    const student = await t.register('student')
    // 10:00 UTC three days on: within one London day whatever the hour the test runs at.
    const start = new Date(base.getTime() + 3 * 24 * HOUR)
    start.setUTCHours(10, 0, 0, 0)
    const times = { start: start.toISOString(), finish: new Date(start.getTime() + 90 * 60_000).toISOString() }
    const booked = await t.request<One<{ id: number }>>('POST', '/api/bookings', {
      token: student.token,
      body: { teach_id: teach.body.data.id, subject_level_id: gcse.id, lesson_type: 3, ...times },
    })
    expect(booked.status, booked.text).toBe(201)
    const paid = await t.request('POST', '/api/payments/pay', { token: student.token, body: { booking_id: booked.body.data.id, payment_method: 'pm_card_visa' } })
    expect(paid.status, paid.text).toBe(200)
    expect((await profileOf(id)).hours_taught).toBe(0)
    clock.set(new Date(times.finish))
    expect(await countHoursTaught(t.services.bookings)).toEqual({ counted: 1, withdrawn: 0 })
    expect((await profileOf(id)).hours_taught).toBe(1.5)
    // A review needs the lesson's payment captured (CONTRACT §14).
    expect((await runDuePayments(t.services.bookings)).captured).toBe(1)

    const reviewed = await t.request('POST', `/api/tutors/${id}/review`, { token: student.token, body: { knowledge: 5, communication: 5, punctuality: 4 } })
    expect(reviewed.status, reviewed.text).toBe(201)
    expect(await profileOf(id)).toMatchObject({ overall_rating: 4.67, review_count: 1 })
    expect(await t.db.selectFrom('tutor_ratings').select(['review_count', 'overall_rating']).where('tutor_id', '=', id).executeTakeFirst()).toEqual({ review_count: 1, overall_rating: 4.67 })

    // The same profile by username, with the role, hidden or shown: visibility gates search only (CONTRACT §14).
    const hidden = await t.request<One<Profile>>('GET', `/api/users/${bare.username}`)
    expect(hidden.status, hidden.text).toBe(200)
    expect(hidden.body.data).toEqual({ ...(await profileOf(id)), role_id: 3, role: 'tutor' })
    await t.request('PUT', `/api/v1/profiles/${profiles.body.data[0]!.id}`, { token: tutor.token, body: { is_visible: true } })
    const byName = await t.request<One<Profile>>('GET', `/api/users/${bare.username}`)
    expect(byName.status, byName.text).toBe(200)
    expect(byName.body.data).toEqual({ ...(await profileOf(id)), role_id: 3, role: 'tutor' })
    expect(byName.body.data).toMatchObject({ is_visible: true })
  })

  it('counts every review when several are written at the same instant', async () => {
    const tutor: Session = await t.bookableTutor()
    const { teachId, levelId } = await t.openOnlineTeach(tutor, '30.00')
    const marks = [5, 4, 3, 2]
    const students: Session[] = []
    // From 10:00 on a day four days on, two hours apart: whatever the hour the test runs, no lesson crosses midnight.
    const day = Math.floor((clock.now().getTime() + 4 * 24 * HOUR) / (24 * HOUR)) * 24 * HOUR
    for (const [i] of marks.entries()) {
      const student: Session = await t.register('student')
      const start = new Date(day + (10 + 2 * i) * HOUR)
      const booked = await t.request<One<{ id: number }>>('POST', '/api/bookings', {
        token: student.token,
        body: { teach_id: teachId, subject_level_id: levelId, lesson_type: 3, start: start.toISOString(), finish: new Date(start.getTime() + HOUR).toISOString() },
      })
      expect(booked.status, booked.text).toBe(201)
      expect((await t.request('POST', '/api/payments/pay', { token: student.token, body: { booking_id: booked.body.data.id, payment_method: 'pm_card_visa' } })).status).toBe(200)
      students.push(student)
    }
    clock.set(new Date(clock.now().getTime() + 5 * 24 * HOUR))
    expect((await runDuePayments(t.services.bookings)).captured).toBe(marks.length)
    const answers = await Promise.all(
      students.map((s, i) => t.request('POST', `/api/tutors/${tutor.user.id}/review`, { token: s.token, body: { knowledge: marks[i], communication: marks[i], punctuality: marks[i] } })),
    )
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201])
    expect(await profileOf(tutor.user.id)).toMatchObject({ overall_rating: 3.5, review_count: 4 })
  })
})
