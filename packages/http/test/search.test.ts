import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { addSearchableTutor, addTutors, aSearchableTutor, catalogOf, explainTutorSearch, removeAllTutors, testDatabaseKinds } from '@tutoring/adapters/testing'
import { generateDemoTutors, type DemoCatalog } from '@tutoring/testkit/demo'
import { distanceMiles } from '@tutoring/domain/shared'
import { fakeClock, placesGeocoder } from '@tutoring/testkit'
import { createTestContext, type TestContext } from './support/harness'

type Item = {
  id: number
  firstname: string
  lastname: string
  profile_picture_url: string
  location: { distance: number | null }
  profile: { tutoring_experience: string | null }
  teaching_info: { teach_id: number; subject: { id: number; title: string }; subject_level: { id: number; title: string } | null; exam_boards: Array<{ id: number; title: string }> }
  lesson_price_breakdown: Record<string, string>
}
type Page = { data: Item[]; meta: { current_page: number; per_page: number; total: number; last_page: number } }
type Problem = { code: string; errors?: Record<string, string[]> }

// Monday 1 June 2026, 11:00 in London.
const NOW = new Date('2026-06-01T10:00:00Z')
const TODAY = '2026-06-01'
const WESTMINSTER = { lat: 51.4995, lng: -0.1248 }
const OXFORD = { lat: 51.752, lng: -1.2577 }

describe.each(testDatabaseKinds())('tutor search on %s', (kind) => {
  let t: TestContext
  let catalog: DemoCatalog
  let maths: { id: number; levelIds: number[] }
  let physics: { id: number; levelIds: number[] }

  const ids = (page: Page) => page.data.map((item) => item.id)
  const get = (query: string) => t.request<Page & Problem>('GET', `/api/v1/search${query ? `?${query}` : ''}`)
  const post = (body: unknown, query = '') => t.request<Page & Problem>('POST', `/api/v1/search${query}`, { body })

  beforeAll(async () => {
    t = await createTestContext(kind, {}, { clock: fakeClock(NOW), geocoder: placesGeocoder() })
    catalog = await catalogOf(t)
    const subjectId = async (title: string) => (await t.db.selectFrom('subjects').select('id').where('title', '=', title).executeTakeFirstOrThrow()).id
    const mathsId = await subjectId('Mathematics')
    const physicsId = await subjectId('Physics')
    maths = catalog.subjects.find((s) => s.id === mathsId)!
    physics = catalog.subjects.find((s) => s.id === physicsId)!
  })
  afterAll(() => t.close())
  beforeEach(() => removeAllTutors(t))

  const mathsTeach = (overrides: Partial<{ levelIds: number[]; examBoardIds: number[]; hourlyRatePence: number; enabled: boolean }> = {}) => ({
    subjectId: maths.id,
    levelIds: [maths.levelIds[0]!],
    examBoardIds: [],
    hourlyRatePence: 3000,
    enabled: true,
    ...overrides,
  })

  it('answers a coordinate so small PostgreSQL arithmetic would underflow on it (found by the search property)', async () => {
    await addSearchableTutor(t, catalog)
    const res = await t.request('POST', '/api/v1/search', { body: { lat: 51.5002, lng: 5.812750536972161e-264, filters: { lesson_type: 'tutors_home' } } })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
  })

  it('answers a found tutor in the shape of SPEC "Tutor search result item"', async () => {
    const id = await addSearchableTutor(t, catalog, { lastname: 'lovelace', teaches: [mathsTeach({ examBoardIds: [catalog.examBoardIds[0]!] })] })
    const res = await get(`subject_id=${maths.id}`)
    expect(res.status).toBe(200)
    const level = await t.db.selectFrom('subject_levels').select(['id', 'title']).where('id', '=', maths.levelIds[0]!).executeTakeFirstOrThrow()
    const board = await t.db.selectFrom('exam_boards').select(['id', 'title']).where('id', '=', catalog.examBoardIds[0]!).executeTakeFirstOrThrow()
    const teach = await t.db.selectFrom('teaches').select('id').where('tutor_id', '=', id).executeTakeFirstOrThrow()
    expect(res.body).toEqual({
      data: [
        {
          id,
          firstname: 'Ada',
          lastname: 'L.',
          profile_picture_url: `http://api.test/api/resources/profile-image/${id}`,
          location: { distance: null },
          profile: { tutoring_experience: '3 years 2 months' },
          teaching_info: { teach_id: teach.id, subject: { id: maths.id, title: 'Mathematics' }, subject_level: level, exam_boards: [board] },
          lesson_price_breakdown: { sign: '£', currency_code: 'GBP', lesson_price: '30.00', service_fee: '3.00', total: '33.00' },
        },
      ],
      meta: { current_page: 1, per_page: 15, total: 1, last_page: 1 },
    })
  })

  it('prices the requested duration and measures the distance in miles, in half-mile bands from the rounded location', async () => {
    await addSearchableTutor(t, catalog, { teaches: [mathsTeach({ hourlyRatePence: 3333 })] })
    const res = await get(`duration=90&lat=${WESTMINSTER.lat}&lng=${WESTMINSTER.lng}`)
    expect(res.body.data[0]!.lesson_price_breakdown).toMatchObject({ lesson_price: '50.00', service_fee: '5.00', total: '55.00' })
    const tutor = aSearchableTutor(catalog).location!
    const rounded = { lat: Math.round(tutor.lat * 100) / 100, lng: Math.round(tutor.lng * 100) / 100 }
    expect(res.body.data[0]!.location.distance).toBe(Math.max(0.5, Math.ceil(distanceMiles(rounded, WESTMINSTER) * 2) / 2))
  })

  describe('the seven rules', () => {
    it('leaves out a tutor whose profile is incomplete, unverified or hidden (rules 1-3)', async () => {
      const ok = await addSearchableTutor(t, catalog)
      const failing = [
        { hasPicture: false },
        { hasVideo: false },
        { bio: '   ' },
        { address: null },
        { hasMobile: false },
        { verifications: { identity: 'PENDING' as const, dbs: 'PASS' as const, qualification: 'PASS' as const } },
        { verifications: { identity: 'PASS' as const, dbs: 'FAIL' as const, qualification: 'PASS' as const } },
        { verifications: { identity: 'PASS' as const, dbs: 'PASS' as const, qualification: 'INTERNAL_REVIEW' as const } },
        { isVisible: false },
      ]
      await addTutors(t, failing.map((o) => aSearchableTutor(catalog, o)))
      expect(ids((await get('')).body)).toEqual([ok])
    })

    it('follows changes to the records at once: hiding, a deleted picture, a deleted account', async () => {
      const [a, b, c] = await addTutors(t, [aSearchableTutor(catalog), aSearchableTutor(catalog), aSearchableTutor(catalog)])
      expect(ids((await get('')).body)).toEqual([a, b, c])
      await t.db.updateTable('profiles').set({ is_visible: false }).where('user_id', '=', a!).execute()
      const picture = await t.db.selectFrom('profiles').select('profile_picture_file_id').where('user_id', '=', b!).executeTakeFirstOrThrow()
      await t.db.updateTable('files').set({ deleted_at: NOW }).where('id', '=', picture.profile_picture_file_id!).execute()
      await t.db.updateTable('users').set({ deleted_at: NOW }).where('id', '=', c!).execute()
      expect(ids((await get('')).body)).toEqual([])
      await t.db.updateTable('profiles').set({ is_visible: true }).where('user_id', '=', a!).execute()
      expect(ids((await get('')).body)).toEqual([a])
    })

    it('needs a schedule window on the date\'s weekday offering the lesson type (rule 4)', async () => {
      const monday = await addSearchableTutor(t, catalog, {
        schedule: [{ day: 'MONDAY', slots: [{ from: '09:00', to: '12:00' }], lessonTypes: ['online'], bufferMinutes: 0 }],
      })
      await addSearchableTutor(t, catalog, { schedule: [] })
      expect(ids((await get('')).body)).toEqual([monday])
      expect(ids((await get('date=2026-06-08')).body)).toEqual([monday])
      expect(ids((await get('date=2026-06-09')).body)).toEqual([])
      expect(ids((await get('filters[lesson_type]=online')).body)).toEqual([monday])
      expect(ids((await get('filters[lesson_type]=tutors_home')).body)).toEqual([])
    })

    it('leaves out a tutor on holiday on the date, or today without one (rule 5)', async () => {
      const away = await addSearchableTutor(t, catalog, { holidays: [{ startDate: '2026-06-01', endDate: '2026-06-05' }] })
      expect(ids((await get('')).body)).toEqual([])
      expect(ids((await get('date=2026-06-05')).body)).toEqual([])
      expect(ids((await get('date=2026-06-06')).body)).toEqual([away])
    })

    it('needs the student within the tutor\'s travel distance for lessons in person only (rule 6)', async () => {
      const near = await addSearchableTutor(t, catalog)
      const noLocation = await addSearchableTutor(t, catalog, { location: null })
      const here = `lat=${WESTMINSTER.lat}&lng=${WESTMINSTER.lng}`
      const there = `lat=${OXFORD.lat}&lng=${OXFORD.lng}`
      expect(ids((await get(`${here}&filters[lesson_type]=students_home`)).body)).toEqual([near])
      expect(ids((await get(`${here}&filters[lesson_type]=tutors_home`)).body)).toEqual([near])
      expect(ids((await get(`${there}&filters[lesson_type]=students_home`)).body)).toEqual([])
      expect(new Set(ids((await get(`${there}&filters[lesson_type]=online`)).body))).toEqual(new Set([near, noLocation]))
      expect(new Set(ids((await get('filters[lesson_type]=students_home')).body))).toEqual(new Set([near, noLocation]))
      expect(ids((await get(`post_code=SW1A%201AA&filters[lesson_type]=students_home`)).body)).toEqual([near])
    })

    it('takes dates from today through today + 14 in London; others find nobody (rule 7)', async () => {
      const id = await addSearchableTutor(t, catalog)
      expect(ids((await get(`date=${TODAY}`)).body)).toEqual([id])
      expect(ids((await get('date=2026-06-15')).body)).toEqual([id])
      for (const date of ['2026-06-16', '2026-05-31']) {
        const res = await get(`date=${date}`)
        expect(res.status).toBe(200)
        expect(res.body).toEqual({ data: [], meta: { current_page: 1, per_page: 15, total: 0, last_page: 1 } })
      }
    })
  })

  describe('filters', () => {
    it('filters by subject, any of the levels and any of the exam boards, in both array spellings', async () => {
      const [l1, l2] = maths.levelIds as [number, number]
      const [b1, b2] = catalog.examBoardIds as [number, number]
      const a = await addSearchableTutor(t, catalog, { teaches: [mathsTeach({ levelIds: [l1], examBoardIds: [b1] })] })
      const b = await addSearchableTutor(t, catalog, { teaches: [mathsTeach({ levelIds: [l2], examBoardIds: [b2] })] })
      const c = await addSearchableTutor(t, catalog, { teaches: [{ ...mathsTeach(), subjectId: physics.id, levelIds: [physics.levelIds[0]!] }] })
      await addSearchableTutor(t, catalog, { teaches: [mathsTeach({ enabled: false })] })
      expect(ids((await get('')).body)).toEqual([a, b, c])
      expect(ids((await get(`subject_id=${maths.id}`)).body)).toEqual([a, b])
      expect(ids((await get(`subject_id=${maths.id}&subject_level_ids[]=${l2}`)).body)).toEqual([b])
      expect(ids((await get(`subject_id=${maths.id}&subject_level_ids=${l1}&subject_level_ids=${l2}`)).body)).toEqual([a, b])
      expect(ids((await get(`exam_boards[]=${b1}`)).body)).toEqual([a])
      expect(ids((await post({ subject_id: maths.id, subject_level_ids: [l1, l2], exam_boards: [b2] })).body)).toEqual([b])
    })

    it('takes the POST parameters as a JSON body, a form body or the query string, with SPEC\'s bracket names, and answers as GET does (CONTRACT §17)', async () => {
      const [l1, l2] = maths.levelIds as [number, number]
      const [en] = catalog.languageIds as [number]
      const a = await addSearchableTutor(t, catalog, { gender: 'female', languageIds: [en], teaches: [mathsTeach({ levelIds: [l1] })] })
      const b = await addSearchableTutor(t, catalog, { gender: 'male', languageIds: [en], teaches: [mathsTeach({ levelIds: [l2] })] })
      await addSearchableTutor(t, catalog, { gender: 'female', teaches: [{ ...mathsTeach(), subjectId: physics.id, levelIds: [physics.levelIds[0]!] }] })
      const query = `subject_id=${maths.id}&subject_level_ids[0]=${l1}&subject_level_ids[1]=${l2}&filters[gender]=female&filters[lesson_type]=online`
      const asGet = await get(query)
      expect(asGet.status, asGet.text).toBe(200)
      expect(ids(asGet.body)).toEqual([a])
      const form = (body: string, path = '/api/v1/search') => t.request<Page & Problem>('POST', path, { raw: body, headers: { 'content-type': 'application/x-www-form-urlencoded' } })
      const answers = [
        await t.request<Page & Problem>('POST', `/api/v1/search?${query}`),
        await form(query),
        await form(encodeURI(query).replace(/\[/g, '%5B').replace(/\]/g, '%5D')),
        await post({ subject_id: maths.id, 'subject_level_ids[0]': l1, 'subject_level_ids[1]': l2, 'filters[gender]': 'female', 'filters[lesson_type]': 'online' }),
        await post({ subject_id: maths.id, subject_level_ids: [l1, l2], filters: { gender: 'female', lesson_type: 'online' } }),
      ]
      for (const answer of answers) {
        expect(answer.status, answer.text).toBe(200)
        expect(answer.body).toEqual(asGet.body)
      }
      expect(ids((await post({}, `?subject_id=${maths.id}&subject_level_ids[]=${l2}`)).body)).toEqual([b])
      // Unknown names are refused in every form, named as sent.
      expect(Object.keys((await form('colour=blue')).body.errors ?? {})).toEqual(['colour'])
      expect(Object.keys((await t.request<Problem>('POST', '/api/v1/search?colour=blue')).body.errors ?? {})).toEqual(['colour'])
      expect((await form('filters[colour]=blue')).status).toBe(422)
      expect((await t.request('POST', '/api/v1/search', { raw: 'subject_id=1', headers: { 'content-type': 'text/plain' } })).status).toBe(400)
    })

    it('shows the requested level, else the teach\'s first', async () => {
      const [l1, l2] = maths.levelIds as [number, number]
      await addSearchableTutor(t, catalog, { teaches: [mathsTeach({ levelIds: [l1, l2] })] })
      expect((await get(`subject_level_ids[]=${l2}`)).body.data[0]!.teaching_info.subject_level!.id).toBe(l2)
      expect((await get('')).body.data[0]!.teaching_info.subject_level!.id).toBe(l1)
    })

    it('filters by gender and language', async () => {
      const [en, fr] = catalog.languageIds as [number, number]
      const a = await addSearchableTutor(t, catalog, { gender: 'female', languageIds: [en] })
      const b = await addSearchableTutor(t, catalog, { gender: 'male', languageIds: [en, fr] })
      await addSearchableTutor(t, catalog, { gender: null, languageIds: [] })
      expect(ids((await get('filters[gender]=female')).body)).toEqual([a])
      expect(ids((await get('filters[gender]=male')).body)).toEqual([b])
      expect(ids((await get(`filters[language]=${fr}`)).body)).toEqual([b])
      expect(ids((await post({ filters: { language: en, gender: 'female' } })).body)).toEqual([a])
    })
  })

  describe('sorting and pages', () => {
    it('sorts by distance with a place, by rating without one, and by price either way', async () => {
      const far = await addSearchableTutor(t, catalog, { location: { postcode: 'OX1 2JD', outcode: 'OX1', lat: OXFORD.lat, lng: OXFORD.lng, travelDistanceMiles: 5 }, teaches: [mathsTeach({ hourlyRatePence: 2000 })] })
      const near = await addSearchableTutor(t, catalog, { teaches: [mathsTeach({ hourlyRatePence: 5000 })] })
      const nowhere = await addSearchableTutor(t, catalog, { location: null, teaches: [mathsTeach({ hourlyRatePence: 3500 })] })
      const here = `lat=${WESTMINSTER.lat}&lng=${WESTMINSTER.lng}`
      expect(ids((await get(here)).body)).toEqual([near, far, nowhere])
      expect(ids((await get(`${here}&sort=distance`)).body)).toEqual([near, far, nowhere])
      expect(ids((await get('')).body)).toEqual([far, near, nowhere])
      await t.db.insertInto('tutor_ratings').values({ tutor_id: nowhere, overall_rating: 4.5, review_count: 2 }).execute()
      expect(ids((await get('sort=rating')).body)).toEqual([nowhere, far, near])
      // Equal ratings: more reviews first.
      await t.db.insertInto('tutor_ratings').values({ tutor_id: near, overall_rating: 4.5, review_count: 5 }).execute()
      expect(ids((await get('sort=rating')).body)).toEqual([near, nowhere, far])
      expect(ids((await get('sort=price_asc')).body)).toEqual([far, nowhere, near])
      expect(ids((await get(`${here}&sort=price_desc`)).body)).toEqual([near, nowhere, far])
    })

    it('prices a tutor by the cheapest matching teach', async () => {
      const mathsAndPhysics = await addSearchableTutor(t, catalog, {
        teaches: [mathsTeach({ hourlyRatePence: 4000 }), { subjectId: physics.id, levelIds: [physics.levelIds[0]!], examBoardIds: [], hourlyRatePence: 2500, enabled: true }],
      })
      const all = await get('')
      expect(all.body.data).toHaveLength(1)
      expect(all.body.data[0]).toMatchObject({ id: mathsAndPhysics, teaching_info: { subject: { id: physics.id } }, lesson_price_breakdown: { lesson_price: '25.00' } })
      expect((await get(`subject_id=${maths.id}`)).body.data[0]!.lesson_price_breakdown.lesson_price).toBe('40.00')
    })

    it('pages with meta, in the query string or the POST body', async () => {
      const made = await addTutors(t, [aSearchableTutor(catalog), aSearchableTutor(catalog), aSearchableTutor(catalog)])
      const first = await get('per_page=2')
      expect(first.body).toMatchObject({ meta: { current_page: 1, per_page: 2, total: 3, last_page: 2 } })
      expect(ids(first.body)).toEqual(made.slice(0, 2))
      expect(ids((await get('per_page=2&page=2')).body)).toEqual(made.slice(2))
      const past = await get('per_page=2&page=3')
      expect(past.body).toEqual({ data: [], meta: { current_page: 3, per_page: 2, total: 3, last_page: 2 } })
      expect((await post({ per_page: 1, page: 2 })).body).toMatchObject({ data: [{ id: made[1] }], meta: { current_page: 2, per_page: 1, total: 3, last_page: 3 } })
      expect((await post({}, '?per_page=1&page=3')).body).toMatchObject({ data: [{ id: made[2] }] })
    })
  })

  describe('refusals', () => {
    const fieldsOf = async (res: Promise<{ status: number; body: Problem }>) => {
      const answered = await res
      expect(answered.status).toBe(422)
      expect(answered.body.code).toBe('validation_failed')
      return Object.keys(answered.body.errors ?? {})
    }

    it('answers 422 validation_failed with the field for each malformed value', async () => {
      expect(await fieldsOf(get('page=0'))).toEqual(['page'])
      expect(await fieldsOf(get('page=99999999999999999999'))).toEqual(['page'])
      expect(await fieldsOf(get('subject_id=99999999999'))).toEqual(['subject_id'])
      expect(await fieldsOf(get('duration=60.5'))).toEqual(['duration'])
      expect(await fieldsOf(get('per_page=101'))).toEqual(['per_page'])
      expect(await fieldsOf(get('per_page=0'))).toEqual(['per_page'])
      expect(await fieldsOf(get('subject_id=maths'))).toEqual(['subject_id'])
      expect(await fieldsOf(get('subject_level_ids[]=x'))).toEqual(['subject_level_ids.0'])
      expect(await fieldsOf(get('date=1-6-2026'))).toEqual(['date'])
      expect(await fieldsOf(get('date=2026-02-30'))).toEqual(['date'])
      expect(await fieldsOf(get('duration=10'))).toEqual(['duration'])
      expect(await fieldsOf(get('sort=cheapest'))).toEqual(['sort'])
      expect(await fieldsOf(get('filters[lesson_type]=pool'))).toEqual(['filters.lesson_type'])
      expect(await fieldsOf(get('filters[gender]=x'))).toEqual(['filters.gender'])
      expect(await fieldsOf(get('lat=51.5'))).toEqual(['lng'])
      expect(await fieldsOf(get('lat=951&lng=0'))).toEqual(['lat'])
      expect(await fieldsOf(get('subject=1'))).toEqual(['subject'])
      expect(await fieldsOf(get('subject_id=1&subject_id=2'))).toEqual(['subject_id'])
      expect(await fieldsOf(post({ filters: { colour: 'blue' } }))).toEqual(['filters.colour'])
      expect(await fieldsOf(post({ subject_level_ids: 3 }))).toEqual(['subject_level_ids'])
    })

    it('refuses a malformed postcode, one that cannot be located, and both kinds of place at once', async () => {
      expect(await fieldsOf(get('post_code=NOT%20A%20CODE'))).toEqual(['post_code'])
      const unknown = await get('post_code=ZE1%200AA')
      expect(unknown.status).toBe(422)
      expect(unknown.body.errors?.post_code?.[0]).toMatch(/could not be located/)
      expect(await fieldsOf(get('post_code=SW1A%201AA&lat=51.5&lng=0'))).toEqual(['post_code'])
    })

    it('refuses sort=distance without a place', async () => {
      expect(await fieldsOf(get('sort=distance'))).toEqual(['sort'])
    })

    it('answers 400 for a POST body that is not JSON', async () => {
      const res = await t.request<Problem>('POST', '/api/v1/search', { raw: '{', headers: { 'content-type': 'application/json' } })
      expect(res.status).toBe(400)
    })
  })

  it('is in the OpenAPI document', async () => {
    const doc = await t.request<{ paths: Record<string, Record<string, { description: string }>> }>('GET', '/openapi.json')
    expect(Object.keys(doc.body.paths['/api/v1/search'] ?? {}).sort()).toEqual(['get', 'post'])
    expect(doc.body.paths['/api/v1/search']!.get!.description).toMatch(/rating/)
  })

  it.runIf(kind === 'postgres')('reaches in-person candidates through one scan of the search keys index (EXPLAIN)', async () => {
    // Tutors all over the country, so that a box around Westminster is a small part of them.
    await addTutors(t, generateDemoTutors({ seed: 7, tutors: 4000, today: TODAY, catalog, searchableOnly: true }))
    const plan = await explainTutorSearch(
      t.db,
      { today: TODAY, lessonType: 'students_home', studentLocation: WESTMINSTER, subjectLevelIds: [], examBoardIds: [], sort: 'distance' },
      { page: 1, perPage: 15 },
    )
    expect(plan).toMatch(/Index Scan on tutor_search_searchable_keys/)
    // The schedule key and the student's grid cell, intersected inside the index.
    expect(plan).toMatch(/Index Cond: \(search_keys @> '\{-\d+,-\d+\}'::integer\[\]\)/)
  })

  it.runIf(kind === 'postgres')('reaches in-person candidates of a subject from the travel boxes alone, no table page read (EXPLAIN)', async () => {
    const subject = catalog.subjects.find((s) => s.levelIds.length > 0)!
    const plan = await explainTutorSearch(
      t.db,
      { today: TODAY, date: TODAY, weekday: 1, lessonType: 'students_home', studentLocation: WESTMINSTER, subjectId: subject.id, subjectLevelIds: [], examBoardIds: [], sort: 'distance' },
      { page: 1, perPage: 15 },
      { analyze: true },
    )
    // The boxes holding the place, read with every column the page filters and sorts by.
    expect(plan).toMatch(/Index Only Scan using tutor_search_in_person_reach on tutor_search_in_person/)
    expect(plan).toMatch(/Heap Fetches: 0/)
    expect(plan).not.toMatch(/on tutor_search ts/)
  })

  describe.runIf(kind === 'postgres')('online, a subject on a date, without a row read per match (EXPLAIN)', () => {
    const online = (sort: 'distance' | 'rating') => {
      const subject = catalog.subjects.find((s) => s.levelIds.length > 0)!
      return { today: TODAY, date: TODAY, weekday: 1, lessonType: 'online', studentLocation: WESTMINSTER, subjectId: subject.id, subjectLevelIds: [], examBoardIds: [], sort } as const
    }
    /** The matches counted one by one, as the statement did before the kept count. */
    const onlineMatches = async (c: { subjectId: number; weekday: number; date: string }) => {
      const { n } = await t.db
        .selectFrom('tutor_search_online')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('subject_id', '=', c.subjectId)
        .where('weekday', '=', c.weekday)
        .where((eb) => eb.or([eb('away', 'is', null), eb.not(eb('away', '@>', eb.cast<string>(eb.val(c.date), 'date')))]))
        .executeTakeFirstOrThrow()
      return Number(n)
    }
    const rows = (plan: string, index: string) => [...plan.matchAll(new RegExp(`Index Only Scan using ${index} on tutor_search_online \\w+ \\(actual time=[\\d.]+ rows=(\\d+)`, 'g'))].map((m) => Number(m[1]))

    it('by distance: the nearest rows bound the page, a box finds it; holidays are not probed', async () => {
      await addTutors(t, generateDemoTutors({ seed: 7, tutors: 4000, today: TODAY, catalog, searchableOnly: true }))
      const plan = await explainTutorSearch(t.db, online('distance'), { page: 1, perPage: 15 }, { analyze: true })
      expect(plan).toMatch(/Order By: \(\(point\(.*<->/)
      const near = rows(plan, 'tutor_search_online_near')
      // The nearest 15, then the box: a small part of the subject's rows.
      expect(near).toHaveLength(2)
      const matches = await onlineMatches(online('distance'))
      expect(matches).toBeGreaterThan(100)
      expect(Math.max(...near)).toBeLessThan(matches / 2)
      // The total is the kept count's: no scan of the subject's rows for it.
      expect(rows(plan, 'tutor_search_online_offer')).toEqual([])
      expect(plan).not.toMatch(/on holidays/)
    }, 120_000)

    it('by rating: the page is read in index order and stops', async () => {
      await addTutors(t, generateDemoTutors({ seed: 7, tutors: 4000, today: TODAY, catalog, searchableOnly: true }))
      const plan = await explainTutorSearch(t.db, online('rating'), { page: 1, perPage: 15 }, { analyze: true })
      // The page reads only its own 15; the total, none of the subject's rows.
      expect(rows(plan, 'tutor_search_online_offer')).toEqual([15])
      expect(plan).not.toMatch(/on holidays/)
    }, 120_000)

    it('the total from the kept count and the holiday ranges on the date, not from the matches', async () => {
      const away = [{ startDate: TODAY, endDate: '2026-06-03' }, { startDate: '2026-01-01', endDate: '2026-01-05' }]
      const tutors = generateDemoTutors({ seed: 7, tutors: 4000, today: TODAY, catalog, searchableOnly: true })
      await addTutors(t, tutors.map((tutor, i) => (i % 5 === 0 ? { ...tutor, holidays: away } : tutor)))
      const plan = await explainTutorSearch(t.db, online('rating'), { page: 1, perPage: 15 }, { analyze: true })
      expect(plan).toMatch(/on tutor_search_online_counts k/)
      expect(plan).toMatch(/on tutor_search_online_away a/)
      // No read of tutor_search_online beyond the page's 15 rows.
      const read = [...plan.matchAll(/on tutor_search_online \w+ \(actual time=[\d.]+ rows=(\d+)/g)].map((m) => Number(m[1]))
      expect(read).toEqual([15])
      // And the total is the matches', holidays and all.
      const criteria = online('rating')
      const res = await get(`subject_id=${criteria.subjectId}&date=${TODAY}&filters[lesson_type]=online&sort=rating`)
      const matches = await onlineMatches(criteria)
      expect(matches).toBeLessThan(await onlineMatches({ ...criteria, date: '2026-06-08' }))
      expect(res.body.meta.total).toBe(matches)
    }, 120_000)
  })
})
