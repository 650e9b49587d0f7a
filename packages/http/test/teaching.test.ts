import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from './support/harness'

type Problem = { status: number; code: string; errors?: Record<string, string[]> }
type One<T> = { data: T }
type List<T> = { data: T[]; meta: { current_page: number; per_page: number; total: number; last_page: number } }
type Teach = { id: number; tutor_id: number; subject_id: number; subject_level_ids: number[]; exam_board_ids: number[]; hourly_rate: string; enabled: boolean }
type DayAvailability = { id: number; day: string; slots: Array<{ from: string; to: string }>; lesson_types: string[]; buffer_minutes: number; subject_id: number | null; subject_level_id: number | null; exam_board_id: number | null }
type Location = { id: number; postcode: string; lat: number; lng: number; travel_distance_miles: number }
type Holiday = { id: number; start_date: string; end_date: string }
type Session = { token: string; user: { id: number } }

describe.each(testDatabaseKinds())('teaching and schedule on %s', (kind) => {
  let t: TestContext
  let tutor: Session
  let otherTutor: Session
  let student: Session
  let staff: { token: string; user: { id: number } }
  const ref = { maths: 0, piano: 0, gcse: 0, aLevel: 0, professional: 0, aqa: 0, ocr: 0 }

  beforeAll(async () => {
    t = await createTestContext(kind)
    ;[tutor, otherTutor, student, staff] = await Promise.all([t.register('tutor'), t.register('tutor'), t.register('student'), t.internalUser()])
    const subjects = await t.db.selectFrom('subjects').select(['id', 'title']).execute()
    const levels = await t.db.selectFrom('subject_levels').select(['id', 'title']).execute()
    const boards = await t.db.selectFrom('exam_boards').select(['id', 'title']).execute()
    const idOf = (rows: Array<{ id: number; title: string }>, title: string) => rows.find((r) => r.title === title)!.id
    Object.assign(ref, {
      maths: idOf(subjects, 'Mathematics'),
      piano: idOf(subjects, 'Piano'),
      gcse: idOf(levels, 'GCSE'),
      aLevel: idOf(levels, 'A-Level'),
      professional: idOf(levels, 'Professional'),
      aqa: idOf(boards, 'AQA'),
      ocr: idOf(boards, 'OCR'),
    })
  })
  afterAll(() => t.close())

  const teachBody = (overrides: Record<string, unknown> = {}) => ({
    subject_id: ref.maths,
    subject_level_ids: [ref.gcse, ref.aLevel],
    exam_board_ids: [ref.aqa],
    hourly_rate: '25.50',
    ...overrides,
  })
  const newTeach = async (who: Session, overrides: Record<string, unknown> = {}) => {
    const res = await t.request<One<Teach>>('POST', '/api/v1/teaches', { token: who.token, body: teachBody(overrides) })
    expect(res.status).toBe(201)
    return res.body.data
  }
  const newEntry = async (who: Session, body: Record<string, unknown>) => {
    const res = await t.request<One<DayAvailability>>('POST', '/api/v1/day-availabilities', { token: who.token, body })
    expect(res.status, res.text).toBe(201)
    return res.body.data
  }
  const newLocation = async (who: Session) => {
    const res = await t.request<One<Location>>('POST', '/api/v1/locations', {
      token: who.token,
      body: { postcode: 'sw1a1aa', lat: 51.501, lng: -0.1416, travel_distance_miles: 5 },
    })
    expect(res.status, res.text).toBe(201)
    return res.body.data
  }
  const newHoliday = async (who: Session) => {
    const res = await t.request<One<Holiday>>('POST', '/api/v1/holidays', { token: who.token, body: { start_date: '2026-12-24', end_date: '2027-01-02' } })
    expect(res.status).toBe(201)
    return res.body.data
  }

  describe('teaches', () => {
    it('creates an enabled teach with the rate in pence inside and pounds on the wire', async () => {
      const me = await t.register('tutor')
      const res = await t.request<One<Teach>>('POST', '/api/v1/teaches', { token: me.token, body: teachBody() })
      expect(res.status).toBe(201)
      expect(res.body.data).toEqual({
        id: expect.any(Number),
        tutor_id: me.user.id,
        subject_id: ref.maths,
        subject_level_ids: [ref.gcse, ref.aLevel].sort((a, b) => a - b),
        exam_board_ids: [ref.aqa],
        hourly_rate: '25.50',
        enabled: true,
        created_at: expect.any(String),
      })
      const row = await t.db.selectFrom('teaches').selectAll().where('id', '=', res.body.data.id).executeTakeFirstOrThrow()
      expect(row).toMatchObject({ tutor_id: me.user.id, hourly_rate_pence: 2550, enabled: true, deleted_at: null })
    })

    it("lists only the caller's teaches, paginated", async () => {
      const me = await t.register('tutor')
      await newTeach(me)
      await newTeach(me, { subject_id: ref.piano, subject_level_ids: [ref.gcse], exam_board_ids: [] })
      await newTeach(otherTutor, { subject_id: ref.piano, subject_level_ids: [ref.gcse] })
      const res = await t.request<List<Teach>>('GET', '/api/v1/teaches?per_page=1&page=2', { token: me.token })
      expect(res.status).toBe(200)
      expect(res.body.meta).toEqual({ current_page: 2, per_page: 1, total: 2, last_page: 2 })
      expect(res.body.data.map((teach) => teach.subject_id)).toEqual([ref.piano])
      expect(res.body.data[0]!.tutor_id).toBe(me.user.id)
    })

    it('refuses a rate outside the lesson-price bounds or not in pounds', async () => {
      for (const [rate, message] of [
        ['9.99', 'must be from 10.00 to 200.00'],
        ['200.01', 'must be from 10.00 to 200.00'],
        ['25.999', 'must be an amount in pounds like "25.00"'],
        ['-25', 'must be an amount in pounds like "25.00"'],
        ['twenty', 'must be an amount in pounds like "25.00"'],
      ]) {
        const res = await t.request<Problem>('POST', '/api/v1/teaches', { token: tutor.token, body: teachBody({ hourly_rate: rate, subject_id: ref.piano, subject_level_ids: [ref.gcse] }) })
        expect(res.status, rate).toBe(422)
        expect(res.body.code).toBe('validation_failed')
        expect(res.body.errors).toEqual({ hourly_rate: [message] })
      }
      const edges = await Promise.all(
        ['10.00', '200'].map(async (rate) => {
          const me = await t.register('tutor')
          return (await t.request<One<Teach>>('POST', '/api/v1/teaches', { token: me.token, body: teachBody({ hourly_rate: rate }) })).body.data.hourly_rate
        }),
      )
      expect(edges).toEqual(['10.00', '200.00'])
    })

    it('refuses a level that is not of the subject, unknown ids, and no levels', async () => {
      const res = await t.request<Problem>('POST', '/api/v1/teaches', {
        token: tutor.token,
        body: teachBody({ subject_level_ids: [ref.gcse, ref.professional], exam_board_ids: [99999] }),
      })
      expect(res.status).toBe(422)
      expect(res.body.errors).toEqual({
        'subject_level_ids.1': ['is not a level of Mathematics'],
        'exam_board_ids.0': ['is not a known exam board'],
      })
      const unknown = await t.request<Problem>('POST', '/api/v1/teaches', { token: tutor.token, body: teachBody({ subject_id: 99999, subject_level_ids: [] }) })
      expect(unknown.body.errors).toEqual({ subject_id: ['is not a known subject'], subject_level_ids: ['needs at least one level'] })
    })

    it('refuses unknown fields, a client-set owner or id, and missing fields', async () => {
      const res = await t.request<Problem>('POST', '/api/v1/teaches', { token: tutor.token, body: { ...teachBody(), id: 5, tutor_id: otherTutor.user.id } })
      expect(res.status).toBe(422)
      expect(res.body.errors).toEqual({ id: ['is not an accepted field'], tutor_id: ['is not an accepted field'] })
      const empty = await t.request<Problem>('POST', '/api/v1/teaches', { token: tutor.token, body: {} })
      expect(Object.keys(empty.body.errors!).sort()).toEqual(['hourly_rate', 'subject_id', 'subject_level_ids'])
      const notJson = await t.request<Problem>('POST', '/api/v1/teaches', { token: tutor.token, raw: '{', headers: { 'content-type': 'application/json' } })
      expect(notJson.status).toBe(400)
    })

    it('keeps one teach per subject, and frees the subject when the teach is deleted', async () => {
      const me = await t.register('tutor')
      const first = await newTeach(me)
      const again = await t.request<Problem>('POST', '/api/v1/teaches', { token: me.token, body: teachBody() })
      expect(again.status).toBe(422)
      expect(again.body.errors?.subject_id).toHaveLength(1)
      const gone = await t.request('DELETE', `/api/v1/teaches/${first.id}`, { token: me.token })
      expect(gone.status).toBe(204)
      expect(gone.text).toBe('')
      const row = await t.db.selectFrom('teaches').select('deleted_at').where('id', '=', first.id).executeTakeFirstOrThrow()
      expect(row.deleted_at).not.toBeNull()
      expect((await t.request('PUT', `/api/v1/teaches/${first.id}`, { token: me.token, body: {} })).status).toBe(404)
      const list = await t.request<List<Teach>>('GET', '/api/v1/teaches', { token: me.token })
      expect(list.body.data).toEqual([])
      await newTeach(me)
    })

    it('lets only one of two concurrent teaches of a subject through', async () => {
      const me = await t.register('tutor')
      const results = await Promise.all([1, 2].map(() => t.request('POST', '/api/v1/teaches', { token: me.token, body: teachBody() })))
      expect(results.map((r) => r.status).sort()).toEqual([201, 422])
    })

    it('changes fields, checks the result whole, and enables and disables', async () => {
      const me = await t.bookableTutor()
      const teach = await newTeach(me)
      const other = await newTeach(me, { subject_id: ref.piano, subject_level_ids: [ref.gcse] })
      const changed = await t.request<One<Teach>>('PUT', `/api/v1/teaches/${teach.id}`, { token: me.token, body: { hourly_rate: '40', exam_board_ids: [ref.ocr, ref.aqa] } })
      expect(changed.status).toBe(200)
      expect(changed.body.data).toMatchObject({ hourly_rate: '40.00', exam_board_ids: [ref.aqa, ref.ocr].sort((a, b) => a - b), subject_level_ids: teach.subject_level_ids })
      const clash = await t.request<Problem>('PUT', `/api/v1/teaches/${other.id}`, { token: me.token, body: { subject_id: ref.maths, subject_level_ids: [ref.gcse] } })
      expect(clash.status).toBe(422)
      expect(Object.keys(clash.body.errors!)).toEqual(['subject_id'])
      const newSubjectOldLevels = await t.request<Problem>('PUT', `/api/v1/teaches/${other.id}`, { token: me.token, body: { subject_id: ref.piano, subject_level_ids: [ref.professional] } })
      expect(newSubjectOldLevels.body.errors).toEqual({ 'subject_level_ids.0': ['is not a level of Piano'] })

      const off = await t.request<One<Teach>>('PUT', `/api/v1/teaches/${teach.id}/disable`, { token: me.token })
      expect(off.status).toBe(200)
      expect(off.body.data.enabled).toBe(false)
      expect((await t.request<One<Teach>>('PUT', `/api/v1/teaches/${teach.id}/disable`, { token: me.token })).body.data.enabled).toBe(false)
      const offered = await t.request<List<Teach>>('GET', `/api/teaches?tutor_id=${me.user.id}`)
      expect(offered.body.data.map((x) => x.id)).toEqual([other.id])
      const on = await t.request<One<Teach>>('PUT', `/api/v1/teaches/${teach.id}/enable`, { token: me.token })
      expect(on.body.data.enabled).toBe(true)
    })

    it('lets only tutors keep teaches', async () => {
      const post = await t.request<Problem>('POST', '/api/v1/teaches', { token: student.token, body: teachBody() })
      expect(post.status).toBe(403)
      expect(post.body.code).toBe('forbidden')
      expect((await t.request('POST', '/api/v1/teaches', { token: staff.token, body: teachBody() })).status).toBe(403)
      expect((await t.request('GET', '/api/v1/teaches', { token: student.token })).status).toBe(403)
      expect((await t.request('GET', '/api/v1/teaches', {})).status).toBe(401)
    })

    it('lists available teaches publicly with titles, filtered, and never of a deleted tutor', async () => {
      const me = await t.bookableTutor()
      const maths = await newTeach(me)
      await newTeach(me, { subject_id: ref.piano, subject_level_ids: [ref.gcse], exam_board_ids: [] })
      const res = await t.request<List<Teach & { subject: unknown; subject_levels: unknown[]; exam_boards: unknown[] }>>(
        'GET',
        `/api/teaches?tutor_id=${me.user.id}&subject_level_id=${ref.aLevel}`,
      )
      expect(res.status).toBe(200)
      expect(res.body.meta.total).toBe(1)
      expect(res.body.data[0]).toMatchObject({
        id: maths.id,
        tutor_id: me.user.id,
        hourly_rate: '25.50',
        subject: { id: ref.maths, title: 'Mathematics' },
        exam_boards: [{ id: ref.aqa, title: 'AQA' }],
      })
      expect(res.body.data[0]!.subject_levels).toHaveLength(2)
      const bySubject = await t.request<List<Teach>>('GET', `/api/teaches?tutor_id=${me.user.id}&subject_id=${ref.piano}`)
      expect(bySubject.body.data.map((x) => x.subject_id)).toEqual([ref.piano])
      const byBoard = await t.request<List<Teach>>('GET', `/api/teaches?tutor_id=${me.user.id}&exam_board_id=${ref.ocr}`)
      expect(byBoard.body.data).toEqual([])
      await t.request('DELETE', '/api/auth', { token: me.token })
      expect((await t.request<List<Teach>>('GET', `/api/teaches?tutor_id=${me.user.id}`)).body.data).toEqual([])
      expect((await t.request('GET', '/api/teaches?per_page=101')).status).toBe(422)
    })
  })

  describe('day availabilities', () => {
    const monday = { day: 'MONDAY', slots: [{ from: '09:00', to: '12:00' }], lesson_types: ['online', 'tutors_home'], buffer_minutes: 15 }

    it('creates an entry, stored as weekday 0..6 with wall-clock times', async () => {
      const me = await t.register('tutor')
      const res = await t.request<One<DayAvailability>>('POST', '/api/v1/day-availabilities', {
        token: me.token,
        body: { ...monday, slots: [{ from: '13:00', to: '24:00' }, { from: '09:00', to: '12:00' }], subject_id: ref.maths, subject_level_id: ref.gcse },
      })
      expect(res.status).toBe(201)
      expect(res.body.data).toEqual({
        id: expect.any(Number),
        tutor_id: me.user.id,
        day: 'MONDAY',
        slots: [
          { from: '09:00', to: '12:00' },
          { from: '13:00', to: '24:00' },
        ],
        lesson_types: ['tutors_home', 'online'],
        buffer_minutes: 15,
        subject_id: ref.maths,
        subject_level_id: ref.gcse,
        exam_board_id: null,
      })
      const row = await t.db.selectFrom('day_availabilities').select(['day', 'tutor_id']).where('id', '=', res.body.data.id).executeTakeFirstOrThrow()
      expect(row).toEqual({ day: 1, tutor_id: me.user.id })
      const slots = await t.db.selectFrom('day_availability_slots').select(['starts_at', 'ends_at']).where('day_availability_id', '=', res.body.data.id).orderBy('starts_at').execute()
      expect(slots).toEqual([
        { starts_at: '09:00:00', ends_at: '12:00:00' },
        { starts_at: '13:00:00', ends_at: '24:00:00' },
      ])
      const sunday = await newEntry(me, { ...monday, day: 'sunday', buffer_minutes: undefined })
      expect(sunday).toMatchObject({ day: 'SUNDAY', buffer_minutes: 0 })
      expect((await t.db.selectFrom('day_availabilities').select('day').where('id', '=', sunday.id).executeTakeFirstOrThrow()).day).toBe(0)
      const list = await t.request<List<DayAvailability>>('GET', '/api/v1/day-availabilities', { token: me.token })
      expect(list.body.data.map((e) => e.day)).toEqual(['SUNDAY', 'MONDAY'])
    })

    it('refuses times off the 15-minute grid, a window ending before it starts, and bad times', async () => {
      const res = await t.request<Problem>('POST', '/api/v1/day-availabilities', {
        token: tutor.token,
        body: { ...monday, slots: [{ from: '09:10', to: '10:00' }, { from: '12:00', to: '11:00' }, { from: '25:00', to: '9:00' }] },
      })
      expect(res.status).toBe(422)
      expect(res.body.errors).toEqual({
        'slots.0.from': ['must be on the 15-minute grid (:00, :15, :30, :45)'],
        'slots.1.to': ['must be after from'],
        'slots.2.from': ['must be a time from 00:00 to 23:45 (HH:MM)'],
        'slots.2.to': ['must be a time from 00:15 to 24:00 (HH:MM)'],
      })
    })

    it('refuses overlapping windows in one entry and across entries of the same day, but not touching ones or other days', async () => {
      const me = await t.register('tutor')
      const inside = await t.request<Problem>('POST', '/api/v1/day-availabilities', {
        token: me.token,
        body: { ...monday, slots: [{ from: '09:00', to: '12:00' }, { from: '11:45', to: '13:00' }] },
      })
      expect(inside.status).toBe(422)
      expect(inside.body.errors).toEqual({ 'slots.1': ['overlaps 09:00-12:00 of this entry'] })

      await newEntry(me, monday)
      const across = await t.request<Problem>('POST', '/api/v1/day-availabilities', {
        token: me.token,
        body: { ...monday, slots: [{ from: '11:00', to: '14:00' }], subject_id: ref.piano },
      })
      expect(across.status).toBe(422)
      expect(across.body.errors).toEqual({ 'slots.0': ['overlaps 09:00-12:00 of your other MONDAY schedule'] })

      await newEntry(me, { ...monday, slots: [{ from: '12:00', to: '14:00' }] })
      await newEntry(me, { ...monday, day: 'TUESDAY' })
      await newEntry(otherTutor, monday)
    })

    it('lets only one of two concurrent overlapping entries through', async () => {
      const me = await t.register('tutor')
      const results = await Promise.all(
        ['09:00', '10:00'].map((from) =>
          t.request('POST', '/api/v1/day-availabilities', { token: me.token, body: { ...monday, day: 'WEDNESDAY', slots: [{ from, to: '12:00' }] } }),
        ),
      )
      expect(results.map((r) => r.status).sort()).toEqual([201, 422])
      expect((await t.request<List<DayAvailability>>('GET', '/api/v1/day-availabilities', { token: me.token })).body.meta.total).toBe(1)
    })

    it('needs a lesson type, a buffer in steps of 5 up to 120, a real day and known filters', async () => {
      const res = await t.request<Problem>('POST', '/api/v1/day-availabilities', {
        token: tutor.token,
        body: { ...monday, slots: [], lesson_types: [], buffer_minutes: 7 },
      })
      expect(res.status).toBe(422)
      expect(res.body.errors).toEqual({
        slots: ['needs at least one time window'],
        lesson_types: ['needs at least one lesson type'],
        buffer_minutes: ['must be a multiple of 5 from 0 to 120'],
      })
      const over = await t.request<Problem>('POST', '/api/v1/day-availabilities', { token: tutor.token, body: { ...monday, buffer_minutes: 125, lesson_types: ['online', 'online'] } })
      expect(over.body.errors).toEqual({ buffer_minutes: ['must be a multiple of 5 from 0 to 120'], lesson_types: ['must not repeat a lesson type'] })
      const shape = await t.request<Problem>('POST', '/api/v1/day-availabilities', {
        token: tutor.token,
        body: { ...monday, day: 'FUNDAY', lesson_types: ['by_post'], buffer_minutes: 'ten', id: 3 },
      })
      expect(Object.keys(shape.body.errors!).sort()).toEqual(['buffer_minutes', 'day', 'id', 'lesson_types.0'])
      const filters = await t.request<Problem>('POST', '/api/v1/day-availabilities', {
        token: tutor.token,
        body: { ...monday, day: 'SATURDAY', subject_id: ref.piano, subject_level_id: ref.professional, exam_board_id: 99999 },
      })
      expect(filters.body.errors).toEqual({ subject_level_id: ['is not a level of Piano'], exam_board_id: ['is not a known exam board'] })
    })

    it('changes an entry in part, checks it against the other entries, and deletes it', async () => {
      const me = await t.register('tutor')
      const morning = await newEntry(me, { ...monday, subject_id: ref.maths })
      const afternoon = await newEntry(me, { ...monday, slots: [{ from: '13:00', to: '17:00' }] })
      const clash = await t.request<Problem>('PUT', `/api/v1/day-availabilities/${afternoon.id}`, { token: me.token, body: { slots: [{ from: '10:00', to: '14:00' }] } })
      expect(clash.status).toBe(422)
      expect(clash.body.errors).toEqual({ 'slots.0': ['overlaps 09:00-12:00 of your other MONDAY schedule'] })
      const moved = await t.request<One<DayAvailability>>('PUT', `/api/v1/day-availabilities/${morning.id}`, {
        token: me.token,
        body: { slots: [{ from: '08:00', to: '13:00' }], subject_id: null, buffer_minutes: 30 },
      })
      expect(moved.status).toBe(200)
      expect(moved.body.data).toMatchObject({ day: 'MONDAY', slots: [{ from: '08:00', to: '13:00' }], subject_id: null, buffer_minutes: 30, lesson_types: ['tutors_home', 'online'] })
      const self = await t.request('PUT', `/api/v1/day-availabilities/${morning.id}`, { token: me.token, body: { slots: [{ from: '08:00', to: '12:30' }] } })
      expect(self.status).toBe(200)
      expect((await t.request('DELETE', `/api/v1/day-availabilities/${morning.id}`, { token: me.token })).status).toBe(204)
      expect(await t.db.selectFrom('day_availability_slots').select('id').where('day_availability_id', '=', morning.id).execute()).toEqual([])
      const list = await t.request<List<DayAvailability>>('GET', '/api/v1/day-availabilities', { token: me.token })
      expect(list.body.data.map((e) => e.id)).toEqual([afternoon.id])
    })
  })

  describe('locations', () => {
    it('normalises the postcode and keeps one location per tutor', async () => {
      const me = await t.register('tutor')
      const first = await newLocation(me)
      expect(first).toEqual({ id: expect.any(Number), tutor_id: me.user.id, postcode: 'SW1A 1AA', lat: 51.501, lng: -0.1416, travel_distance_miles: 5 })
      const second = await t.request<One<Location>>('POST', '/api/v1/locations', {
        token: me.token,
        body: { postcode: 'M1  1ae', lat: 53.48, lng: -2.24, travel_distance_miles: 12.5 },
      })
      expect(second.status).toBe(201)
      expect(second.body.data).toMatchObject({ postcode: 'M1 1AE', travel_distance_miles: 12.5 })
      const list = await t.request<List<Location>>('GET', '/api/v1/locations', { token: me.token })
      expect(list.body.data).toEqual([second.body.data])
      expect(await t.db.selectFrom('locations').select('outcode').where('tutor_id', '=', me.user.id).execute()).toEqual([{ outcode: 'M1' }])
    })

    it('refuses a bad postcode, a postcode the geocoder does not know without coordinates, and distances out of range', async () => {
      const bad = await t.request<Problem>('POST', '/api/v1/locations', { token: tutor.token, body: { postcode: 'NOT A CODE', lat: 51.5, lng: -0.1, travel_distance_miles: 5 } })
      expect(bad.status).toBe(422)
      expect(bad.body.errors).toEqual({ postcode: ['is not a valid UK postcode'] })
      const noCoordinates = await t.request<Problem>('POST', '/api/v1/locations', { token: tutor.token, body: { postcode: 'ZZ9 9ZZ', travel_distance_miles: 5 } })
      expect(noCoordinates.status).toBe(422)
      expect(noCoordinates.body.errors).toEqual({ postcode: ['could not be located'] })
      const far = await t.request<Problem>('POST', '/api/v1/locations', { token: tutor.token, body: { postcode: 'SW1A 1AA', lat: 95, lng: 0, travel_distance_miles: 101 } })
      expect(Object.keys(far.body.errors!).sort()).toEqual(['lat', 'travel_distance_miles'])
      const unknown = await t.request<Problem>('POST', '/api/v1/locations', { token: tutor.token, body: { postcode: 'SW1A 1AA', lat: 1, lng: 1, travel_distance_miles: 1, city: 'x' } })
      expect(unknown.body.errors).toEqual({ city: ['is not an accepted field'] })
    })

    it('changes the travel distance, refuses a new postcode the geocoder does not know without coordinates, and deletes', async () => {
      const me = await t.register('tutor')
      const location = await newLocation(me)
      const farther = await t.request<One<Location>>('PUT', `/api/v1/locations/${location.id}`, { token: me.token, body: { travel_distance_miles: 20 } })
      expect(farther.status).toBe(200)
      expect(farther.body.data).toMatchObject({ postcode: 'SW1A 1AA', lat: 51.501, travel_distance_miles: 20 })
      const moved = await t.request<Problem>('PUT', `/api/v1/locations/${location.id}`, { token: me.token, body: { postcode: 'ZZ9 9ZZ' } })
      expect(moved.status).toBe(422)
      expect(moved.body.errors).toEqual({ postcode: ['could not be located'] })
      expect((await t.request('DELETE', `/api/v1/locations/${location.id}`, { token: me.token })).status).toBe(204)
      expect((await t.request<List<Location>>('GET', '/api/v1/locations', { token: me.token })).body.data).toEqual([])
    })
  })

  describe('holidays', () => {
    it('adds inclusive holidays, lists them by start date, and deletes', async () => {
      const me = await t.register('tutor')
      const later = await t.request<One<Holiday>>('POST', '/api/v1/holidays', { token: me.token, body: { start_date: '2027-04-01', end_date: '2027-04-01' } })
      expect(later.status).toBe(201)
      expect(later.body.data).toEqual({ id: expect.any(Number), tutor_id: me.user.id, start_date: '2027-04-01', end_date: '2027-04-01' })
      const sooner = await newHoliday(me)
      const list = await t.request<List<Holiday>>('GET', '/api/v1/holidays', { token: me.token })
      expect(list.body.data.map((h) => h.id)).toEqual([sooner.id, later.body.data.id])
      expect((await t.request('DELETE', `/api/v1/holidays/${sooner.id}`, { token: me.token })).status).toBe(204)
      expect((await t.request<List<Holiday>>('GET', '/api/v1/holidays', { token: me.token })).body.meta.total).toBe(1)
    })

    it('refuses an end before the start and dates that do not exist', async () => {
      const backwards = await t.request<Problem>('POST', '/api/v1/holidays', { token: tutor.token, body: { start_date: '2026-12-24', end_date: '2026-12-23' } })
      expect(backwards.status).toBe(422)
      expect(backwards.body.errors).toEqual({ end_date: ['must not be before start_date'] })
      const unreal = await t.request<Problem>('POST', '/api/v1/holidays', { token: tutor.token, body: { start_date: '2026-02-30', end_date: 'soon' } })
      expect(unreal.body.errors).toEqual({ start_date: ['must be a real date YYYY-MM-DD'], end_date: ['must be a real date YYYY-MM-DD'] })
      const missing = await t.request<Problem>('POST', '/api/v1/holidays', { token: tutor.token, body: { start_date: '2026-12-24' } })
      expect(missing.body.errors).toEqual({ end_date: ['is required'] })
    })
  })

  describe('who may act', () => {
    type Walk = { name: string; make: (owner: Session) => Promise<number>; method: string; path: (id: number) => string; body?: unknown; ok: number }
    const walks: Walk[] = [
      { name: 'change a teach', make: async (o) => (await newTeach(o)).id, method: 'PUT', path: (id) => `/api/v1/teaches/${id}`, body: { hourly_rate: '30.00' }, ok: 200 },
      { name: 'enable a teach', make: async (o) => (await newTeach(o)).id, method: 'PUT', path: (id) => `/api/v1/teaches/${id}/enable`, ok: 200 },
      { name: 'disable a teach', make: async (o) => (await newTeach(o)).id, method: 'PUT', path: (id) => `/api/v1/teaches/${id}/disable`, ok: 200 },
      { name: 'delete a teach', make: async (o) => (await newTeach(o)).id, method: 'DELETE', path: (id) => `/api/v1/teaches/${id}`, ok: 204 },
      {
        name: 'change a day availability',
        make: async (o) => (await newEntry(o, { day: 'FRIDAY', slots: [{ from: '09:00', to: '10:00' }], lesson_types: ['online'] })).id,
        method: 'PUT',
        path: (id) => `/api/v1/day-availabilities/${id}`,
        body: { buffer_minutes: 10 },
        ok: 200,
      },
      {
        name: 'delete a day availability',
        make: async (o) => (await newEntry(o, { day: 'FRIDAY', slots: [{ from: '09:00', to: '10:00' }], lesson_types: ['online'] })).id,
        method: 'DELETE',
        path: (id) => `/api/v1/day-availabilities/${id}`,
        ok: 204,
      },
      { name: 'change a location', make: async (o) => (await newLocation(o)).id, method: 'PUT', path: (id) => `/api/v1/locations/${id}`, body: { travel_distance_miles: 3 }, ok: 200 },
      { name: 'delete a location', make: async (o) => (await newLocation(o)).id, method: 'DELETE', path: (id) => `/api/v1/locations/${id}`, ok: 204 },
      { name: 'delete a holiday', make: async (o) => (await newHoliday(o)).id, method: 'DELETE', path: (id) => `/api/v1/holidays/${id}`, ok: 204 },
    ]

    for (const walk of walks) {
      it(`${walk.name}: the owner and internal staff may; another tutor and a student get 404; anonymous 401`, async () => {
        const owner = await t.register('tutor')
        const id = await walk.make(owner)
        const as = (token?: string) => t.request<Problem>(walk.method, walk.path(id), { ...(token ? { token } : {}), ...(walk.body ? { body: walk.body } : {}) })
        expect((await as()).status).toBe(401)
        const stranger = await as(otherTutor.token)
        expect(stranger.status).toBe(404)
        expect(stranger.body.code).toBe('not_found')
        expect((await as(student.token)).status).toBe(404)
        expect((await as(owner.token)).status).toBe(walk.ok)
        const another = await t.register('tutor')
        const theirs = await walk.make(another)
        const staffCall = await t.request(walk.method, walk.path(theirs), { token: staff.token, ...(walk.body ? { body: walk.body } : {}) })
        expect(staffCall.status).toBe(walk.ok)
      })
    }

    const collections = [
      { path: '/api/v1/teaches', body: () => teachBody({ subject_id: ref.piano, subject_level_ids: [ref.gcse] }) },
      { path: '/api/v1/day-availabilities', body: () => ({ day: 'THURSDAY', slots: [{ from: '06:00', to: '07:00' }], lesson_types: ['online'] }) },
      { path: '/api/v1/locations', body: () => ({ postcode: 'SW1A 1AA', lat: 51.5, lng: -0.14, travel_distance_miles: 2 }) },
      { path: '/api/v1/holidays', body: () => ({ start_date: '2027-08-01', end_date: '2027-08-14' }) },
    ]
    for (const collection of collections) {
      it(`${collection.path}: a tutor lists and adds; internal staff list every tutor's but add none; a student gets 403; anonymous 401`, async () => {
        const me = await t.register('tutor')
        const created = await t.request<One<{ id: number; tutor_id: number }>>('POST', collection.path, { token: me.token, body: collection.body() })
        expect(created.status).toBe(201)
        const mine = await t.request<List<{ id: number; tutor_id: number }>>('GET', collection.path, { token: me.token })
        expect(mine.status).toBe(200)
        expect(mine.body.data.every((r) => r.tutor_id === me.user.id)).toBe(true)
        expect(mine.body.data.map((r) => r.id)).toContain(created.body.data.id)
        const staffOne = await t.request<List<{ tutor_id: number }>>('GET', `${collection.path}?tutor_id=${me.user.id}`, { token: staff.token })
        expect(staffOne.status).toBe(200)
        expect(staffOne.body.data.map((r) => r.tutor_id)).toEqual(mine.body.data.map((r) => r.tutor_id))
        expect((await t.request('GET', collection.path, { token: staff.token })).status).toBe(200)
        expect((await t.request('GET', `${collection.path}?tutor_id=${me.user.id}`, { token: otherTutor.token })).status).toBe(403)
        expect((await t.request('POST', collection.path, { token: staff.token, body: collection.body() })).status).toBe(403)
        expect((await t.request('GET', collection.path, { token: student.token })).status).toBe(403)
        expect((await t.request('POST', collection.path, { token: student.token, body: collection.body() })).status).toBe(403)
        expect((await t.request('GET', collection.path)).status).toBe(401)
        expect((await t.request('POST', collection.path, { body: collection.body() })).status).toBe(401)
      })
    }

    it('answers 422, never 500, for reference ids beyond the integer range', async () => {
      expect((await t.request('GET', '/api/teaches?subject_id=1000000000000000')).status).toBe(422)
      const teach = await t.request<Problem>('POST', '/api/v1/teaches', { token: tutor.token, body: teachBody({ subject_id: 1e15, subject_level_ids: [1e15] }) })
      expect(teach.status).toBe(422)
      const entry = await t.request<Problem>('POST', '/api/v1/day-availabilities', {
        token: tutor.token,
        body: { day: 'MONDAY', slots: [{ from: '09:00', to: '10:00' }], lesson_types: ['online'], exam_board_id: 3e9 },
      })
      expect(entry.status).toBe(422)
    })

    it('answers 404 for ids that are malformed or of no record', async () => {
      expect((await t.request('PUT', '/api/v1/teaches/abc', { token: tutor.token, body: {} })).status).toBe(404)
      expect((await t.request('DELETE', '/api/v1/holidays/999999999', { token: tutor.token })).status).toBe(404)
      expect((await t.request('PUT', '/api/v1/day-availabilities/0', { token: tutor.token, body: {} })).status).toBe(404)
    })
  })
})
