import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { systemResolver } from '@tutoring/adapters'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { fakeClock } from '@tutoring/testkit'
import { createTestContext, type TestContext } from './support/harness'

type Problem = { status: number; code: string; errors?: Record<string, string[]> }
type Slot = { start: string; end: string }
type Day = { date: string; duration_preference: { min: number; max: number; default: number }; available_lesson_types: string[]; times: Slot[] }
type Availability = {
  data: {
    lesson_price_breakdown: Record<string, string>
    availabilities: Day[]
  }
}
type Session = { token: string; user: { id: number } }
type Address = { line1: string | null; line2: string | null; city: string | null; postcode: string; country: string; lat: number; lng: number }

const SW1A = { postcode: 'SW1A 1AA', lat: 51.501009, lng: -0.141588 }
const W1A = { postcode: 'W1A 1AA', lat: 51.518561, lng: -0.143799 }
const WEEK = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY']

/** An ICS feed: a one-off event on Wednesday 25 March 10:00-11:00 London and a weekly Thursday 14:00-15:00 London. */
const FEED = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//test//test//EN',
  'BEGIN:VEVENT',
  'UID:one@test',
  'DTSTAMP:20260101T000000Z',
  'DTSTART;TZID=Europe/London:20260325T100000',
  'DTEND;TZID=Europe/London:20260325T110000',
  'SUMMARY:Dentist',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:weekly@test',
  'DTSTAMP:20260101T000000Z',
  'DTSTART;TZID=Europe/London:20260319T140000',
  'DTEND;TZID=Europe/London:20260319T150000',
  'RRULE:FREQ=WEEKLY;BYDAY=TH',
  'SUMMARY:Choir',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n')

describe.each(testDatabaseKinds())('availability on %s', (kind) => {
  let t: TestContext
  const clock = fakeClock(new Date('2026-03-20T12:00:00Z'))
  let feedServer: Server
  let feedUrl = ''
  let student: Session
  const ref = { maths: 0, gcse: 0, aLevel: 0, aqa: 0, ocr: 0 }

  beforeAll(async () => {
    feedServer = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/calendar' })
      res.end(FEED)
    })
    await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve))
    feedUrl = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/tutor.ics`
    // Only here may a feed live on 127.0.0.1: production allows public addresses only.
    t = await createTestContext(kind, {}, { clock, calendarAddressPolicy: { allow: () => true, resolve: systemResolver } })
    student = await t.register('student')
    const idOf = (rows: Array<{ id: number; title: string }>, title: string) => rows.find((r) => r.title === title)!.id
    const subjects = await t.db.selectFrom('subjects').select(['id', 'title']).execute()
    const levels = await t.db.selectFrom('subject_levels').select(['id', 'title']).execute()
    const boards = await t.db.selectFrom('exam_boards').select(['id', 'title']).execute()
    Object.assign(ref, {
      maths: idOf(subjects, 'Mathematics'),
      gcse: idOf(levels, 'GCSE'),
      aLevel: idOf(levels, 'A-Level'),
      aqa: idOf(boards, 'AQA'),
      ocr: idOf(boards, 'OCR'),
    })
  })
  afterAll(async () => {
    await t.close()
    await new Promise((resolve) => feedServer.close(resolve))
  })

  /** A tutor at SW1A 1AA travelling 5 miles, teaching maths at £30/h, 09:00-17:00 London every day. */
  async function tutorWithTeach(options: { buffer?: number; days?: string[] } = {}) {
    const tutor = await t.bookableTutor()
    const teach = await t.request<{ data: { id: number } }>('POST', '/api/v1/teaches', {
      token: tutor.token,
      body: { subject_id: ref.maths, subject_level_ids: [ref.gcse, ref.aLevel], exam_board_ids: [ref.aqa], hourly_rate: '30.00' },
    })
    expect(teach.status, teach.text).toBe(201)
    for (const day of options.days ?? WEEK) {
      const entry = await t.request('POST', '/api/v1/day-availabilities', {
        token: tutor.token,
        body: { day, slots: [{ from: '09:00', to: '17:00' }], lesson_types: ['online', 'tutors_home', 'students_home'], buffer_minutes: options.buffer ?? 0 },
      })
      expect(entry.status, entry.text).toBe(201)
    }
    const location = await t.request('POST', '/api/v1/locations', { token: tutor.token, body: { ...SW1A, travel_distance_miles: 5 } })
    expect(location.status, location.text).toBe(201)
    return { tutor, teachId: teach.body.data.id }
  }

  const get = (query: Record<string, string | number>, token?: string, path = '/api/availabilites') =>
    t.request<Availability>('GET', `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`, { token })
  const timesOn = (body: Availability, date: string): Slot[] => body.data.availabilities.find((d) => d.date === date)?.times ?? []
  const starts = (slots: Slot[]) => slots.map((s) => s.start)

  async function insertLesson(tutorId: number, teachId: number, values: { start: string; finish: string; lessonType: number; state?: number; place?: { lat: number; lng: number; postcode: string } }) {
    await t.db
      .insertInto('lessons')
      .values({
        tutor_id: tutorId,
        student_id: student.user.id,
        teach_id: teachId,
        subject_id: ref.maths,
        subject_level_id: ref.gcse,
        exam_board_id: null,
        lesson_type: values.lessonType,
        state: values.state ?? 1,
        start_at: new Date(values.start),
        finish_at: new Date(values.finish),
        suggested_start_at: null,
        suggested_finish_at: null,
        proposed_by: null,
        proposal_expires_at: null,
        address: values.place
          ? JSON.stringify({ line1: '1 Street', line2: null, city: 'London', postcode: values.place.postcode, country: 'GB', lat: values.place.lat, lng: values.place.lng })
          : null,
        meeting_url: null,
        experience_rating: null,
        cancelled_at: null,
        cancelled_by: null,
      })
      .execute()
  }

  it('prices the requested duration and lists every date of the 14-day window, slots after now', async () => {
    clock.set(new Date('2026-03-20T12:00:00Z'))
    const { teachId } = await tutorWithTeach()
    const res = await get({ teach_id: teachId, duration: 90 })
    expect(res.status, res.text).toBe(200)
    expect(res.body.data.lesson_price_breakdown).toEqual({
      sign: '£',
      currency_code: 'GBP',
      display_format: '£{amount}',
      lesson_price: '45.00',
      service_fee: '4.50',
      total: '49.50',
      discount_amount: '0.00',
      initial_total: '49.50',
    })
    const dates = res.body.data.availabilities.map((d) => d.date)
    expect(dates[0]).toBe('2026-03-20')
    expect(dates.at(-1)).toBe('2026-04-03')
    expect(dates).not.toContain('2026-04-04')
    const today = res.body.data.availabilities[0]!
    expect(today.duration_preference).toEqual({ min: 30, max: 120, default: 60 })
    expect(today.available_lesson_types).toEqual(['tutors_home', 'online'])
    expect(today.times[0]).toEqual({ start: '12:15', end: '13:45' })
    expect(today.times.at(-1)).toEqual({ start: '15:30', end: '17:00' })

    const last = await get({ teach_id: teachId, date: '2026-04-03' })
    expect(timesOn(last.body, '2026-04-03')[0]).toEqual({ start: '08:00', end: '09:00' })
    const beyond = await get({ teach_id: teachId, date: '2026-04-05' })
    expect(beyond.status).toBe(200)
    expect(timesOn(beyond.body, '2026-04-05')).toEqual([])
    const past = await get({ teach_id: teachId, date: '2026-03-19' })
    expect(timesOn(past.body, '2026-03-19')).toEqual([])
  })

  it('keeps a 09:00-17:00 schedule at 09:00-17:00 London time across both daylight saving changes', async () => {
    clock.set(new Date('2026-03-25T00:00:00Z'))
    const { teachId } = await tutorWithTeach()
    const saturday = await get({ teach_id: teachId, date: '2026-03-28' })
    expect(timesOn(saturday.body, '2026-03-28')[0]).toEqual({ start: '09:00', end: '10:00' })
    const springForward = await get({ teach_id: teachId, date: '2026-03-29' })
    expect(timesOn(springForward.body, '2026-03-29')[0]).toEqual({ start: '08:00', end: '09:00' })
    expect(timesOn(springForward.body, '2026-03-29').at(-1)).toEqual({ start: '15:00', end: '16:00' })
    const londonView = await get({ teach_id: teachId, date: '2026-03-29', utc_offset: 60 })
    expect(timesOn(londonView.body, '2026-03-29')[0]).toEqual({ start: '09:00', end: '10:00' })
    expect(timesOn(londonView.body, '2026-03-29').at(-1)).toEqual({ start: '16:00', end: '17:00' })

    clock.set(new Date('2026-10-20T00:00:00Z'))
    const before = await get({ teach_id: teachId, date: '2026-10-24', utc_offset: 60 })
    expect(timesOn(before.body, '2026-10-24')[0]).toEqual({ start: '09:00', end: '10:00' })
    const fallBack = await get({ teach_id: teachId, date: '2026-10-25' })
    expect(timesOn(fallBack.body, '2026-10-25')[0]).toEqual({ start: '09:00', end: '10:00' })
    expect(timesOn(fallBack.body, '2026-10-25').at(-1)).toEqual({ start: '16:00', end: '17:00' })
  })

  it('relabels slots into the client offset, a slot belonging to the date it starts on', async () => {
    clock.set(new Date('2026-03-20T12:00:00Z'))
    const { teachId } = await tutorWithTeach()
    const west = await get({ teach_id: teachId, date: '2026-03-24', utc_offset: -300 })
    expect(timesOn(west.body, '2026-03-24')[0]).toEqual({ start: '04:00', end: '05:00' })
    const east = await get({ teach_id: teachId, date: '2026-03-24', utc_offset: 600 })
    const times = timesOn(east.body, '2026-03-24')
    // 14:00-16:00 GMT on the 23rd start on the 24th in +10:00; 09:00-13:45 GMT on the 24th start at 19:00-23:45.
    expect(times[0]).toEqual({ start: '00:00', end: '01:00' })
    expect(starts(times)).toContain('02:00')
    expect(starts(times)).not.toContain('02:15')
    expect(times).toContainEqual({ start: '19:00', end: '20:00' })
    expect(times.at(-1)).toEqual({ start: '23:45', end: '00:45' })
  })

  it("keeps a booked in-person lesson's buffer and the travel time clear, and ignores cancelled lessons", async () => {
    clock.set(new Date('2026-03-20T12:00:00Z'))
    const { tutor, teachId } = await tutorWithTeach({ buffer: 15 })
    await insertLesson(tutor.user.id, teachId, { start: '2026-03-24T12:00:00Z', finish: '2026-03-24T13:00:00Z', lessonType: 2, place: W1A })
    await insertLesson(tutor.user.id, teachId, { start: '2026-03-24T15:00:00Z', finish: '2026-03-24T16:00:00Z', lessonType: 3, state: 0 })

    // In person: 15 minutes of buffer and 5 minutes' drive between SW1A 1AA and W1A 1AA each side.
    const inPerson = await get({ teach_id: teachId, date: '2026-03-24', lesson_type: 1 })
    const inPersonStarts = starts(timesOn(inPerson.body, '2026-03-24'))
    expect(inPersonStarts).toContain('10:30')
    expect(inPersonStarts).not.toContain('10:45')
    expect(inPersonStarts).not.toContain('13:15')
    expect(inPersonStarts).toContain('13:30')
    // Online: the buffer only.
    const online = await get({ teach_id: teachId, date: '2026-03-24', lesson_type: 3 })
    const onlineStarts = starts(timesOn(online.body, '2026-03-24'))
    expect(onlineStarts).toContain('10:45')
    expect(onlineStarts).not.toContain('11:00')
    expect(onlineStarts).toContain('13:15')
    // The cancelled lesson blocks nothing.
    expect(onlineStarts).toContain('15:00')
  })

  it("blocks the events of the tutor's calendar feed, recurring and zoned ones included", async () => {
    clock.set(new Date('2026-03-20T12:00:00Z'))
    const { tutor, teachId } = await tutorWithTeach()
    const set = await t.request<{ data: { url: string } }>('PUT', '/api/v1/calendar-feed', { token: tutor.token, body: { url: feedUrl } })
    expect(set.status, set.text).toBe(200)
    expect(set.body.data.url).toBe(feedUrl)
    expect((await t.request('GET', '/api/v1/calendar-feed', { token: tutor.token })).body).toEqual({ data: { url: feedUrl } })

    const wednesday = starts(timesOn((await get({ teach_id: teachId, date: '2026-03-25' })).body, '2026-03-25'))
    expect(wednesday).toContain('09:00')
    expect(wednesday).not.toContain('09:15')
    expect(wednesday).not.toContain('10:45')
    expect(wednesday).toContain('11:00')
    const thursday = starts(timesOn((await get({ teach_id: teachId, date: '2026-03-26' })).body, '2026-03-26'))
    expect(thursday).toContain('13:00')
    expect(thursday).not.toContain('14:00')
    // After the clocks change the weekly event is still 14:00 London, 13:00 UTC.
    const nextThursday = starts(timesOn((await get({ teach_id: teachId, date: '2026-04-02' })).body, '2026-04-02'))
    expect(nextThursday).toContain('12:00')
    expect(nextThursday).not.toContain('12:15')
    expect(nextThursday).toContain('14:00')

    expect((await t.request('PUT', '/api/v1/calendar-feed', { token: tutor.token, body: { url: null } })).status).toBe(200)
    const freed = starts(timesOn((await get({ teach_id: teachId, date: '2026-03-25' })).body, '2026-03-25'))
    expect(freed).toContain('10:00')
  })

  it('refuses calendar feeds from non-tutors and URLs that are not http(s)', async () => {
    const res = await t.request<Problem>('PUT', '/api/v1/calendar-feed', { token: student.token, body: { url: 'https://example.com/a.ics' } })
    expect(res.status).toBe(403)
    const { tutor } = await tutorWithTeach({ days: [] })
    const bad = await t.request<Problem>('PUT', '/api/v1/calendar-feed', { token: tutor.token, body: { url: 'file:///etc/passwd' } })
    expect(bad.status).toBe(422)
    expect(Object.keys(bad.body.errors!)).toEqual(['url'])
  })

  it("offers students_home only within the tutor's travel distance", async () => {
    clock.set(new Date('2026-03-20T12:00:00Z'))
    const { teachId } = await tutorWithTeach()
    const near = await get({ teach_id: teachId, date: '2026-03-24', post_code: 'w1a1aa' })
    expect(near.body.data.availabilities[0]!.available_lesson_types).toEqual(['tutors_home', 'students_home', 'online'])
    const nearHome = await get({ teach_id: teachId, date: '2026-03-24', post_code: 'W1A 1AA', lesson_type: 2 })
    expect(timesOn(nearHome.body, '2026-03-24').length).toBeGreaterThan(0)
    const far = await get({ teach_id: teachId, date: '2026-03-24', post_code: 'M1 1AE' })
    expect(far.body.data.availabilities[0]!.available_lesson_types).toEqual(['tutors_home', 'online'])
    const farHome = await get({ teach_id: teachId, date: '2026-03-24', post_code: 'M1 1AE', lesson_type: 2 })
    expect(farHome.status).toBe(200)
    expect(timesOn(farHome.body, '2026-03-24')).toEqual([])
  })

  it('offers nothing on a holiday', async () => {
    clock.set(new Date('2026-03-20T12:00:00Z'))
    const { tutor, teachId } = await tutorWithTeach()
    const holiday = await t.request('POST', '/api/v1/holidays', { token: tutor.token, body: { start_date: '2026-03-26', end_date: '2026-03-27' } })
    expect(holiday.status, holiday.text).toBe(201)
    const res = await get({ teach_id: teachId })
    expect(timesOn(res.body, '2026-03-25').length).toBeGreaterThan(0)
    expect(timesOn(res.body, '2026-03-26')).toEqual([])
    expect(timesOn(res.body, '2026-03-27')).toEqual([])
    expect(timesOn(res.body, '2026-03-28').length).toBeGreaterThan(0)
  })

  it('answers 404 for an unknown, disabled or deleted teach and 422 for bad parameters', async () => {
    clock.set(new Date('2026-03-20T12:00:00Z'))
    const { tutor, teachId } = await tutorWithTeach({ days: ['MONDAY'] })
    expect((await get({ teach_id: 999_999 })).status).toBe(404)
    const problem = async (query: Record<string, string | number>) => {
      const res = await get({ teach_id: teachId, ...query })
      expect(res.status, res.text).toBe(422)
      return (res.body as unknown as Problem).errors
    }
    expect(await problem({ date: '2026-02-30' })).toEqual({ date: ['must be a YYYY-MM-DD date'] })
    expect(Object.keys((await problem({ date: 'tomorrow' }))!)).toEqual(['date'])
    expect(Object.keys((await problem({ duration: 200 }))!)).toEqual(['duration'])
    expect(Object.keys((await problem({ utc_offset: 900 }))!)).toEqual(['utc_offset'])
    expect(Object.keys((await problem({ lesson_type: 4 }))!)).toEqual(['lesson_type'])
    expect(await problem({ post_code: 'NOT A CODE' })).toEqual({ post_code: ['is not a valid UK postcode'] })
    expect(await problem({ post_code: 'ZZ9 9ZZ' })).toEqual({ post_code: ['could not be located'] })
    expect(await problem({ lesson_type: 2 })).toEqual({ post_code: ["is required for a lesson at the student's home"] })
    expect((await t.request('GET', '/api/availabilites')).status).toBe(422)

    expect((await t.request('PUT', `/api/v1/teaches/${teachId}`, { token: tutor.token, body: { enabled: false } })).status).toBe(200)
    expect((await get({ teach_id: teachId })).status).toBe(404)
  })

  it('serves the signed-in search with lesson types by name and the level and board filters', async () => {
    clock.set(new Date('2026-03-20T12:00:00Z'))
    const { teachId } = await tutorWithTeach()
    const path = '/api/v1/availabilities/search'
    expect((await get({ teach_id: teachId }, undefined, path)).status).toBe(401)
    const named = await get({ teach_id: teachId, date: '2026-03-24', lesson_type: 'online', subject_level_id: ref.gcse, exam_board_id: ref.aqa }, student.token, path)
    expect(named.status, named.text).toBe(200)
    expect(timesOn(named.body, '2026-03-24')[0]).toEqual({ start: '09:00', end: '10:00' })
    const legacy = await get({ teach_id: teachId, date: '2026-03-24', lesson_type: 3 })
    expect(named.body).toEqual(legacy.body)
    expect((await get({ teach_id: teachId, lesson_type: 'online' })).status).toBe(422)
    const wrongBoard = await get({ teach_id: teachId, exam_board_id: ref.ocr }, student.token, path)
    expect(wrongBoard.status).toBe(422)
    expect((wrongBoard.body as unknown as Problem).errors).toEqual({ exam_board_id: ['is not an exam board this teach covers'] })
  })

  it('searches addresses by postcode or its start, on both paths', async () => {
    const full = await t.request<{ data: Address[] }>('GET', '/api/addresses/search?postcode=sw1a1aa')
    expect(full.status, full.text).toBe(200)
    expect(full.body.data).toEqual([{ line1: 'Buckingham Palace', line2: null, city: 'London', postcode: 'SW1A 1AA', country: 'GB', lat: SW1A.lat, lng: SW1A.lng }])
    const bare = await t.request<{ data: Address[] }>('GET', '/api/v1/addresses/search-postcode?post_code=M1%201AE')
    expect(bare.body.data).toEqual([{ line1: null, line2: null, city: 'Manchester', postcode: 'M1 1AE', country: 'GB', lat: expect.any(Number), lng: expect.any(Number) }])
    const prefix = await t.request<{ data: Address[] }>('GET', '/api/v1/addresses/search-postcode?postcode=SW1A')
    expect(prefix.body.data.map((a) => a.postcode)).toEqual(['SW1A 1AA', 'SW1A 2AA'])
    const unknown = await t.request<{ data: Address[] }>('GET', '/api/addresses/search?postcode=ZZ9%209ZZ')
    expect(unknown.status).toBe(200)
    expect(unknown.body.data).toEqual([])
    const bad = await t.request<Problem>('GET', '/api/addresses/search?postcode=hello')
    expect(bad.status).toBe(422)
    expect(Object.keys(bad.body.errors!)).toEqual(['postcode'])
    expect((await t.request('GET', '/api/addresses/search')).status).toBe(422)
  })

  it('documents every new route', async () => {
    const doc = await t.request<{ paths: Record<string, unknown> }>('GET', '/openapi.json')
    for (const path of ['/api/availabilites', '/api/v1/availabilities/search', '/api/addresses/search', '/api/v1/addresses/search-postcode', '/api/v1/calendar-feed']) {
      expect(doc.body.paths[path], path).toBeDefined()
    }
  })
})
