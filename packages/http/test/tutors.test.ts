import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from './support/harness'

type Problem = { status: number; code: string }
type Status = {
  data: {
    eligible: boolean
    reasons: string[]
    verifications: { identity: { status: string; reference: string | null }; dbs: { status: string }; qualification: { status: string } }
  }
}
type Session = { token: string; user: { id: number } }

const fullTutor = {
  lastname: 'lovelace',
  address: { line1: '12 Analytical Street', city: 'London', postcode: 'SW1A 1AA' },
  mobile: '+447700900123',
  dbs: { certificate_number: '001234567890', issue_date: '2025-01-15' },
}

describe.each(testDatabaseKinds())('tutor views on %s', (kind) => {
  let t: TestContext
  let student: Session
  let staff: Session
  let maths = 0
  let gcse = 0

  beforeAll(async () => {
    t = await createTestContext(kind)
    ;[student, staff] = await Promise.all([t.register('student'), t.internalUser()])
    maths = (await t.db.selectFrom('subjects').select('id').where('title', '=', 'Mathematics').executeTakeFirstOrThrow()).id
    gcse = (await t.db.selectFrom('subject_levels').select('id').where('title', '=', 'GCSE').executeTakeFirstOrThrow()).id
  })
  afterAll(() => t.close())

  /** What other contexts (files, profiles, verification) will write; set here directly. */
  async function completeProfileAndVerifications(userId: number) {
    const file = async (mime: string) => {
      const id = randomUUID()
      await t.db.insertInto('files').values({ id, owner_id: userId, purpose: 'profile', name: 'x', mime_type: mime, size: 10, storage_key: `k/${id}`, deleted_at: null }).execute()
      return id
    }
    await t.db
      .updateTable('profiles')
      .set({
        bio: 'I teach maths.',
        is_visible: true,
        tutoring_experience_months: 38,
        teacher_reference_number: 'RP12345',
        profile_picture_file_id: await file('image/png'),
        profile_video_file_id: await file('video/mp4'),
      })
      .where('user_id', '=', userId)
      .execute()
    await t.db.updateTable('verifications').set({ status: 'PASS' }).where('user_id', '=', userId).execute()
    for (const kind of ['identity', 'qualification'] as const) {
      await t.db
        .insertInto('verifications')
        .values({ user_id: userId, kind, status: 'PASS', reference: `${kind}_${userId}`, redirect_url: null, document_file_id: null, certificate_number: null, issue_date: null, reviewed_by: null })
        .execute()
    }
    const english = await t.db.selectFrom('languages').select('id').where('code', '=', 'en').executeTakeFirstOrThrow()
    await t.db.insertInto('user_languages').values({ user_id: userId, language_id: english.id }).execute()
  }

  async function teachAndSchedule(me: Session, lessonTypes: string[]) {
    const teach = await t.request('POST', '/api/v1/teaches', { token: me.token, body: { subject_id: maths, subject_level_ids: [gcse], hourly_rate: '30.00' } })
    expect(teach.status).toBe(201)
    const entry = await t.request('POST', '/api/v1/day-availabilities', {
      token: me.token,
      body: { day: 'MONDAY', slots: [{ from: '09:00', to: '17:00' }], lesson_types: lessonTypes, buffer_minutes: 15 },
    })
    expect(entry.status).toBe(201)
  }

  describe('GET /api/v1/tutors/status', () => {
    it('tells a new tutor everything that keeps them out of search', async () => {
      const me = await t.register('tutor')
      const res = await t.request<Status>('GET', '/api/v1/tutors/status', { token: me.token })
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual({
        eligible: false,
        reasons: [
          'profile_picture_missing',
          'profile_video_missing',
          'bio_missing',
          'address_missing',
          'mobile_missing',
          'identity_not_passed',
          'dbs_not_passed',
          'qualification_not_passed',
          'not_visible',
          'no_availability',
        ],
        verifications: { identity: { status: 'NONE', reference: null }, dbs: { status: 'NONE' }, qualification: { status: 'NONE' } },
      })
    })

    it('shows a submitted DBS as PENDING', async () => {
      const me = await t.register('tutor', fullTutor)
      const res = await t.request<Status>('GET', '/api/v1/tutors/status', { token: me.token })
      expect(res.body.data.verifications.dbs).toEqual({ status: 'PENDING' })
      expect(res.body.data.reasons).not.toContain('address_missing')
      expect(res.body.data.reasons).not.toContain('mobile_missing')
    })

    it('becomes eligible once everything is in place, and not while on holiday today', async () => {
      const me = await t.register('tutor', fullTutor)
      await completeProfileAndVerifications(me.user.id)
      const noSchedule = await t.request<Status>('GET', '/api/v1/tutors/status', { token: me.token })
      expect(noSchedule.body.data).toMatchObject({ eligible: false, reasons: ['no_availability'] })
      await teachAndSchedule(me, ['online', 'students_home'])
      const ready = await t.request<Status>('GET', '/api/v1/tutors/status', { token: me.token })
      expect(ready.body.data).toEqual({
        eligible: true,
        reasons: [],
        verifications: { identity: { status: 'PASS', reference: `identity_${me.user.id}` }, dbs: { status: 'PASS' }, qualification: { status: 'PASS' } },
      })
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date())
      const holiday = await t.request<{ data: { id: number } }>('POST', '/api/v1/holidays', { token: me.token, body: { start_date: today, end_date: today } })
      expect((await t.request<Status>('GET', '/api/v1/tutors/status', { token: me.token })).body.data).toMatchObject({ eligible: false, reasons: ['on_holiday'] })
      await t.request('DELETE', `/api/v1/holidays/${holiday.body.data.id}`, { token: me.token })
      expect((await t.request<Status>('GET', '/api/v1/tutors/status', { token: me.token })).body.data.eligible).toBe(true)
    })

    it('is for tutors only', async () => {
      expect((await t.request<Problem>('GET', '/api/v1/tutors/status', { token: student.token })).status).toBe(403)
      expect((await t.request<Problem>('GET', '/api/v1/tutors/status', { token: staff.token })).status).toBe(403)
      expect((await t.request<Problem>('GET', '/api/v1/tutors/status')).status).toBe(401)
    })
  })

  describe('GET /api/tutors/{id}/profile', () => {
    it('shows the public profile: abbreviated name, media links, district only, experience in words', async () => {
      const me = await t.register('tutor', fullTutor)
      await completeProfileAndVerifications(me.user.id)
      await teachAndSchedule(me, ['online', 'tutors_home'])
      await t.request('POST', '/api/v1/locations', { token: me.token, body: { postcode: 'sw1a 2aa', lat: 51.5034, lng: -0.1276, travel_distance_miles: 7.5 } })
      const res = await t.request<{ data: Record<string, unknown> }>('GET', `/api/tutors/${me.user.id}/profile`)
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual({
        id: me.user.id,
        username: expect.any(String),
        firstname: 'Test',
        lastname: 'L.',
        joined_at: expect.any(String),
        profile_picture_url: `http://api.test/api/resources/profile-image/${me.user.id}`,
        profile_video_url: `http://api.test/api/resources/profile-video/${me.user.id}`,
        bio: 'I teach maths.',
        verification: { identity: true, dbs: true, qualification: true },
        verification_status: 'verified',
        is_visible: true,
        location: { postcode_district: 'SW1A', lat: 51.5, lng: -0.13, travel_distance_miles: 7.5 },
        education: [],
        languages: [{ id: expect.any(Number), code: 'en', name: 'English' }],
        tutoring_experience: '3 years 2 months',
        tutoring_experience_months: 38,
        teaching_experience: { qualified_teacher: true, professions: [] },
        overall_rating: null,
        review_count: 0,
        hours_taught: 0,
        social_links: [],
        teaches: [expect.objectContaining({ subject: { id: maths, title: 'Mathematics' }, hourly_rate: '30.00' })],
      })
      expect(res.text).not.toContain('51.5034')
      expect(res.text).not.toContain('2AA')
      expect(res.text).not.toContain('RP12345')
    })

    it('shows a bare tutor with nulls, never leaving a field out', async () => {
      const me = await t.register('tutor')
      const res = await t.request<{ data: Record<string, unknown> }>('GET', `/api/tutors/${me.user.id}/profile`)
      expect(res.status).toBe(200)
      expect(res.body.data).toMatchObject({
        profile_picture_url: null,
        profile_video_url: null,
        bio: null,
        verification: { identity: false, dbs: false, qualification: false },
        verification_status: 'unverified',
        is_visible: false,
        location: null,
        tutoring_experience: null,
        teaching_experience: { qualified_teacher: false, professions: [] },
        teaches: [],
      })
    })

    it('is 404 for a student, a deleted tutor and an unknown id', async () => {
      const gone = await t.register('tutor')
      await t.request('DELETE', '/api/auth', { token: gone.token })
      for (const id of [student.user.id, gone.user.id, 99999999]) {
        const res = await t.request<Problem>('GET', `/api/tutors/${id}/profile`)
        expect(res.status, String(id)).toBe(404)
        expect(res.body.code).toBe('not_found')
      }
    })
  })

  describe('GET /api/tutors/{id}', () => {
    it('gives internal staff everything about a tutor', async () => {
      const me = await t.register('tutor', fullTutor)
      await teachAndSchedule(me, ['online'])
      await t.request('POST', '/api/v1/holidays', { token: me.token, body: { start_date: '2026-12-24', end_date: '2026-12-26' } })
      const res = await t.request<{ data: Record<string, unknown> }>('GET', `/api/tutors/${me.user.id}`, { token: staff.token })
      expect(res.status).toBe(200)
      expect(res.body.data).toMatchObject({
        user: { id: me.user.id, role: 'tutor', lastname: 'lovelace' },
        personal_details: { date_of_birth: null },
        addresses: [{ line1: '12 Analytical Street', postcode: 'SW1A 1AA', country: 'GB' }],
        mobile_numbers: [{ number: '+447700900123' }],
        profile: { user_id: me.user.id, is_visible: false, time_zone: 'Europe/London', profile_picture_url: null },
        languages: [],
        teaches: [{ subject_id: maths, hourly_rate: '30.00', enabled: true }],
        day_availabilities: [{ day: 'MONDAY', slots: [{ from: '09:00', to: '17:00' }] }],
        location: null,
        holidays: [{ start_date: '2026-12-24', end_date: '2026-12-26' }],
        verifications: { identity: { status: 'NONE', reference: null }, dbs: { status: 'PENDING' }, qualification: { status: 'NONE', reference: null } },
        subscription: { status: 'trialing' },
      })
    })

    it('is internal only, and 404 for anyone but a live tutor', async () => {
      const me = await t.register('tutor')
      expect((await t.request('GET', `/api/tutors/${me.user.id}`)).status).toBe(401)
      expect((await t.request('GET', `/api/tutors/${me.user.id}`, { token: me.token })).status).toBe(403)
      expect((await t.request('GET', `/api/tutors/${me.user.id}`, { token: student.token })).status).toBe(403)
      expect((await t.request('GET', `/api/tutors/${student.user.id}`, { token: staff.token })).status).toBe(404)
      expect((await t.request('GET', '/api/tutors/not-a-number', { token: staff.token })).status).toBe(404)
    })
  })

  it('documents every route of this feature in /openapi.json', async () => {
    const doc = await t.request<{ paths: Record<string, Record<string, unknown>> }>('GET', '/openapi.json')
    const expected: Record<string, string[]> = {
      '/api/v1/teaches': ['get', 'post'],
      '/api/v1/teaches/{id}': ['put', 'delete'],
      '/api/v1/teaches/{id}/enable': ['put'],
      '/api/v1/teaches/{id}/disable': ['put'],
      '/api/teaches': ['get'],
      '/api/v1/day-availabilities': ['get', 'post'],
      '/api/v1/day-availabilities/{id}': ['put', 'delete'],
      '/api/v1/locations': ['get', 'post'],
      '/api/v1/locations/{id}': ['put', 'delete'],
      '/api/v1/holidays': ['get', 'post'],
      '/api/v1/holidays/{id}': ['delete'],
      '/api/v1/tutors/status': ['get'],
      '/api/tutors/{id}/profile': ['get'],
      '/api/tutors/{id}': ['get'],
    }
    for (const [path, methods] of Object.entries(expected)) {
      for (const method of methods) expect(doc.body.paths[path]?.[method], `${method} ${path}`).toBeDefined()
    }
    const post = doc.body.paths['/api/v1/day-availabilities']!.post as { requestBody: unknown; description: string }
    expect(post.requestBody).toBeDefined()
    expect(post.description).toContain('15-minute grid')
  })
})
