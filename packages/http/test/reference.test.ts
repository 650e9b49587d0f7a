import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from './support/harness'
import { fakeClock } from '@tutoring/testkit'

type Meta = { current_page: number; per_page: number; total: number; last_page: number }
type List<T = Record<string, unknown>> = { data: T[]; meta: Meta }
type Problem = { status: number; code: string; errors?: Record<string, string[]> }
type Subject = { id: number; title: string; group: string; subject_level_ids: number[] }

const PUBLIC_LISTS = ['/api/subjects', '/api/subject-groups', '/api/countries', '/api/cancellation-policies', '/api/lesson-locations', '/api/service-notifications']
const AUTH_LISTS = ['/api/v1/subjects', '/api/v1/subject-levels', '/api/v1/exam-boards', '/api/v1/lesson-locations', '/api/v1/languages']

describe.each(testDatabaseKinds())('reference data on %s', (kind) => {
  let t: TestContext
  let token: string
  const clock = fakeClock(new Date('2026-11-22T10:00:00Z'))
  beforeAll(async () => {
    t = await createTestContext(kind, {}, { clock })
    token = (await t.register('student')).token
  })
  afterAll(() => t.close())

  const get = <T>(url: string) => t.request<T>('GET', url, { token })

  describe('every list', () => {
    it.each([...PUBLIC_LISTS, ...AUTH_LISTS])('%s answers data with page meta, 15 a page by default', async (url) => {
      const res = await get<List>(url)
      expect(res.status).toBe(200)
      expect(res.body.meta).toEqual({ current_page: 1, per_page: 15, total: expect.any(Number), last_page: Math.max(1, Math.ceil(res.body.meta.total / 15)) })
      expect(res.body.data.length).toBe(Math.min(15, res.body.meta.total))
    })

    it.each([...PUBLIC_LISTS, ...AUTH_LISTS])('%s refuses per_page 0 or 101 and page 0 with 422', async (url) => {
      for (const query of ['per_page=0', 'per_page=101', 'page=0', 'page=abc', 'per_page=2.5']) {
        const res = await get<Problem>(`${url}?${query}`)
        expect(res.status, query).toBe(422)
        expect(res.body.code).toBe('validation_failed')
        expect(Object.keys(res.body.errors!)).toEqual([query.split('=')[0]])
      }
    })

    it.each(AUTH_LISTS)('%s needs a token (401 without one, or with a bad one)', async (url) => {
      expect((await t.request<Problem>('GET', url)).body).toMatchObject({ status: 401, code: 'unauthenticated' })
      expect((await t.request('GET', url, { token: 'A'.repeat(43) })).status).toBe(401)
    })
  })

  it('pages through subjects without gaps or repeats', async () => {
    const all = await get<List<Subject>>('/api/subjects?per_page=100')
    const total = all.body.meta.total
    expect(total).toBeGreaterThan(10)
    const seen: number[] = []
    for (let page = 1; page <= Math.ceil(total / 7); page++) {
      const res = await get<List<Subject>>(`/api/subjects?page=${page}&per_page=7`)
      expect(res.body.meta).toEqual({ current_page: page, per_page: 7, total, last_page: Math.ceil(total / 7) })
      seen.push(...res.body.data.map((s) => s.id))
    }
    expect(seen).toEqual(all.body.data.map((s) => s.id))
    const beyond = await get<List>(`/api/subjects?page=${Math.ceil(total / 7) + 1}&per_page=7`)
    expect(beyond.status).toBe(200)
    expect(beyond.body.data).toEqual([])
  })

  it('GET /api/subjects lists subjects with their group and levels', async () => {
    const res = await t.request<List<Subject>>('GET', '/api/subjects?per_page=100')
    const maths = res.body.data.find((s) => s.title === 'Mathematics')
    expect(maths).toEqual({ id: expect.any(Number), title: 'Mathematics', group: 'ACADEMIC', subject_level_ids: expect.any(Array) })
    expect(maths!.subject_level_ids.length).toBeGreaterThan(3)
    expect(new Set(res.body.data.map((s) => s.group))).toEqual(new Set(['ACADEMIC', 'PROFESSIONAL', 'CUSTOM']))
  })

  it('GET /api/v1/subjects filters by subject level', async () => {
    const levels = await get<List<{ id: number; title: string }>>('/api/v1/subject-levels?per_page=100')
    const professional = levels.body.data.find((l) => l.title === 'Professional')!
    const res = await get<List<Subject>>(`/api/v1/subjects?subject_level_id=${professional.id}&per_page=100`)
    expect(res.status).toBe(200)
    expect(res.body.data.length).toBeGreaterThan(0)
    expect(res.body.data.every((s) => s.subject_level_ids.includes(professional.id))).toBe(true)
    expect(res.body.data.map((s) => s.title)).toContain('Accounting')
    expect(res.body.data.map((s) => s.title)).not.toContain('Mathematics')
    expect(res.body.meta.total).toBe(res.body.data.length)
    const none = await get<List>('/api/v1/subjects?subject_level_id=999999')
    expect(none.body).toEqual({ data: [], meta: { current_page: 1, per_page: 15, total: 0, last_page: 1 } })
    const bad = await get<Problem>('/api/v1/subjects?subject_level_id=abc')
    expect(bad.status).toBe(422)
    expect(bad.body.errors).toHaveProperty('subject_level_id')
  })

  it('GET /api/subject-groups answers ACADEMIC, PROFESSIONAL and CUSTOM with their subjects', async () => {
    const res = await t.request<List<{ group: string; subjects: Subject[] }>>('GET', '/api/subject-groups')
    expect(res.body.data.map((g) => g.group)).toEqual(['ACADEMIC', 'PROFESSIONAL', 'CUSTOM'])
    for (const group of res.body.data) {
      expect(group.subjects.length).toBeGreaterThan(0)
      expect(group.subjects.every((s) => s.group === group.group)).toBe(true)
    }
  })

  it('GET /api/v1/subject-levels lists levels, optionally of one subject', async () => {
    const all = await get<List<{ id: number; title: string }>>('/api/v1/subject-levels?per_page=100')
    expect(all.body.data[0]).toEqual({ id: expect.any(Number), title: 'Primary' })
    const subjects = await get<List<Subject>>('/api/v1/subjects?per_page=100')
    const accounting = subjects.body.data.find((s) => s.title === 'Accounting')!
    const levels = await get<List<{ id: number }>>(`/api/v1/subject-levels?subject_id=${accounting.id}`)
    expect(levels.body.data.map((l) => l.id).sort()).toEqual([...accounting.subject_level_ids].sort())
  })

  it('GET /api/v1/exam-boards lists exam boards', async () => {
    const res = await get<List<{ id: number; title: string }>>('/api/v1/exam-boards')
    expect(res.body.data.map((b) => b.title)).toEqual(expect.arrayContaining(['AQA', 'Edexcel', 'OCR']))
    expect(Object.keys(res.body.data[0]!).sort()).toEqual(['id', 'title'])
  })

  it('GET /api/countries lists ISO codes with names', async () => {
    const countries: Array<{ id: number; code: string; name: string }> = []
    for (let page = 1, last = 1; page <= last; page++) {
      const res = await t.request<List<{ id: number; code: string; name: string }>>('GET', `/api/countries?per_page=100&page=${page}`)
      last = res.body.meta.last_page
      countries.push(...res.body.data)
    }
    expect(countries.length).toBeGreaterThan(200)
    expect(countries.every((c) => /^[A-Z]{2}$/.test(c.code) && c.name.length > 0)).toBe(true)
    expect(countries.filter((c) => c.code === 'GB')).toEqual([{ id: expect.any(Number), code: 'GB', name: 'United Kingdom' }])
  })

  it('GET /api/lesson-price answers the rate bounds as money strings and the fee', async () => {
    const res = await t.request<{ data: Record<string, unknown> }>('GET', '/api/lesson-price')
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({
      sign: '£',
      currency_code: 'GBP',
      display_format: '£{amount}',
      min_hourly_rate: '10.00',
      max_hourly_rate: '200.00',
      default_hourly_rate: '30.00',
      service_fee_percent: 10,
    })
  })

  it('GET /api/cancellation-policies answers the default refund tiers', async () => {
    const res = await t.request<List>('GET', '/api/cancellation-policies')
    expect(res.body.data).toEqual([
      { id: expect.any(Number), hours_before_start: 24, refund_percent: 100 },
      { id: expect.any(Number), hours_before_start: 0, refund_percent: 50 },
    ])
  })

  it('GET /api/lesson-locations and its legacy twin answer the three lesson types', async () => {
    const current = await t.request<List>('GET', '/api/lesson-locations')
    expect(current.body.data).toEqual([
      { id: 1, name: 'TUTORS_HOME', slug: 'tutors_home', title: "Tutor's home" },
      { id: 2, name: 'STUDENTS_HOME', slug: 'students_home', title: "Student's home" },
      { id: 3, name: 'ONLINE', slug: 'online', title: 'Online' },
    ])
    expect((await get<List>('/api/v1/lesson-locations')).body).toEqual(current.body)
  })

  it('GET /api/service-notifications answers only the notices in force now', async () => {
    const at = (offsetHours: number) => new Date(clock.now().getTime() + offsetHours * 3_600_000)
    await t.db
      .insertInto('service_notices')
      .values([
        { title: 'Maintenance tonight', message: 'Down 01:00-02:00', severity: 'warning', starts_at: at(-1), ends_at: at(5) },
        { title: 'Old outage', message: 'Over', severity: 'critical', starts_at: at(-48), ends_at: at(-24) },
        { title: 'Next week', message: 'Not yet', severity: 'info', starts_at: at(24), ends_at: null },
      ])
      .execute()
    const res = await t.request<List<{ title: string; starts_at: string; ends_at: string | null }>>('GET', '/api/service-notifications')
    const titles = res.body.data.map((n) => n.title)
    expect(titles).toContain('Maintenance tonight')
    expect(titles).not.toContain('Old outage')
    expect(titles).not.toContain('Next week')
    const maintenance = res.body.data.find((n) => n.title === 'Maintenance tonight')
    expect(maintenance).toEqual({
      id: expect.any(Number),
      title: 'Maintenance tonight',
      message: 'Down 01:00-02:00',
      severity: 'warning',
      starts_at: at(-1).toISOString(),
      ends_at: at(5).toISOString(),
    })
    clock.advance(6 * 3_600_000)
    const later = await t.request<List<{ title: string }>>('GET', '/api/service-notifications')
    expect(later.body.data.map((n) => n.title)).not.toContain('Maintenance tonight')
    clock.advance(-6 * 3_600_000)
  })

  it('GET /api/v1/languages lists languages for a signed-in user', async () => {
    const res = await get<List<{ code: string; name: string }>>('/api/v1/languages?per_page=100')
    expect(res.body.data).toContainEqual({ id: expect.any(Number), code: 'cy', name: 'Welsh' })
  })

  it('keeps a reference list per process for up to 30 s, then shows an edit', async () => {
    const titles = async () => (await t.request<List<Subject>>('GET', '/api/subjects?per_page=100')).body.data.map((s) => s.title)
    await titles()
    await t.db.insertInto('subjects').values({ title: 'Astronomy', group: 'CUSTOM' }).execute()
    expect(await titles()).not.toContain('Astronomy')
    clock.advance(30_001)
    expect(await titles()).toContain('Astronomy')
  })

  it('tags an edited list anew once it shows: the old tag then gets the new list, not a 304', async () => {
    const read = (url: string, ifNoneMatch?: string) => t.request<List<Subject>>('GET', url, { headers: ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {} })
    for (const url of ['/api/subjects?per_page=100', '/api/subjects?page=2']) await read(url)
    const before = await read('/api/subjects?per_page=100')
    const tag = before.headers.get('etag')!
    expect((await read('/api/subjects?per_page=100', tag)).status).toBe(304)
    await t.db.insertInto('subjects').values({ title: 'Zoology', group: 'CUSTOM' }).execute()
    clock.advance(30_001)
    const after = await read('/api/subjects?per_page=100', tag)
    expect(after.status).toBe(200)
    expect(after.body.data.map((s) => s.title)).toContain('Zoology')
    expect(after.headers.get('etag')).not.toBe(tag)
    // Each page is its own answer of the list, edited alike.
    const page2 = await read('/api/subjects?page=2')
    expect(page2.body.meta.total).toBe(after.body.meta.total)
  })
})
