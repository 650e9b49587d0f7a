import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from './support/harness'

type Problem = { status: number; code: string; errors?: Record<string, string[]> }
type Caller = { token: string; user: { id: number } }
type Page<T> = { data: T[]; meta: { current_page: number; per_page: number; total: number; last_page: number } }

describe.each(testDatabaseKinds())('personal records on %s', (kind) => {
  let t: TestContext
  let student: Caller
  let parent: Caller
  let tutor: Caller

  beforeAll(async () => {
    t = await createTestContext(kind)
    student = await t.register('student')
    parent = await t.register('parent')
    tutor = await t.register('tutor', { date_of_birth: '1990-12-10' })
  })
  afterAll(() => t.close())

  const expectInvalid = async (method: string, url: string, token: string, body: unknown, fields: string[]) => {
    const res = await t.request<Problem>(method, url, { token, body })
    expect(res.status, res.text).toBe(422)
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8')
    expect(res.body.code).toBe('validation_failed')
    expect(Object.keys(res.body.errors ?? {}).sort()).toEqual([...fields].sort())
    return res.body.errors!
  }

  describe('personal details', () => {
    it("lists the caller's one record, made at registration, as a page", async () => {
      const res = await t.request<Page<Record<string, unknown>>>('GET', '/api/v1/personal-details', { token: tutor.token })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        data: [{ id: expect.any(Number), user_id: tutor.user.id, date_of_birth: '1990-12-10', gender: null, language_ids: [] }],
        meta: { current_page: 1, per_page: 15, total: 1, last_page: 1 },
      })
    })

    it('changes date of birth, gender and spoken languages, and clears them with null and []', async () => {
      const id = (await t.request<Page<{ id: number }>>('GET', '/api/v1/personal-details', { token: student.token })).body.data[0]!.id
      const languages = (await t.request<Page<{ id: number }>>('GET', '/api/v1/languages', { token: student.token })).body.data
      const [first, second] = [languages[0]!.id, languages[1]!.id]
      const res = await t.request<{ data: Record<string, unknown> }>('PUT', `/api/v1/personal-details/${id}`, {
        token: student.token,
        body: { date_of_birth: '2008-03-01', gender: 'female', language_ids: [second, first, second] },
      })
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual({
        id,
        user_id: student.user.id,
        date_of_birth: '2008-03-01',
        gender: 'female',
        language_ids: [first, second].sort((a, b) => a - b),
      })
      const stored = await t.db.selectFrom('user_languages').select('language_id').where('user_id', '=', student.user.id).execute()
      expect(stored).toHaveLength(2)

      const genderOnly = await t.request<{ data: Record<string, unknown> }>('PUT', `/api/v1/personal-details/${id}`, {
        token: student.token,
        body: { gender: 'male' },
      })
      expect(genderOnly.body.data).toMatchObject({ date_of_birth: '2008-03-01', gender: 'male', language_ids: expect.any(Array) })

      const cleared = await t.request<{ data: Record<string, unknown> }>('PUT', `/api/v1/personal-details/${id}`, {
        token: student.token,
        body: { date_of_birth: null, gender: null, language_ids: [] },
      })
      expect(cleared.body.data).toMatchObject({ date_of_birth: null, gender: null, language_ids: [] })
    })

    it('refuses bad values, unknown languages and unknown fields with 422 and changes nothing', async () => {
      const id = (await t.request<Page<{ id: number }>>('GET', '/api/v1/personal-details', { token: tutor.token })).body.data[0]!.id
      const url = `/api/v1/personal-details/${id}`
      await expectInvalid('PUT', url, tutor.token, { date_of_birth: '2199-01-01', gender: 'other', user_id: 4 }, ['date_of_birth', 'gender', 'user_id'])
      await expectInvalid('PUT', url, tutor.token, { date_of_birth: '1990-02-30' }, ['date_of_birth'])
      const errors = await expectInvalid('PUT', url, tutor.token, { language_ids: [1, 99999] }, ['language_ids.1'])
      expect(errors['language_ids.1']).toEqual(['is not a known language'])
      await expectInvalid('PUT', url, tutor.token, { language_ids: ['en'] }, ['language_ids.0'])
      const after = await t.db.selectFrom('personal_details').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
      expect(after).toMatchObject({ date_of_birth: '1990-12-10', gender: null })
      expect(await t.db.selectFrom('user_languages').select('language_id').where('user_id', '=', tutor.user.id).execute()).toEqual([])
    })

    it('answers 400 for a body that is not JSON', async () => {
      const id = (await t.request<Page<{ id: number }>>('GET', '/api/v1/personal-details', { token: tutor.token })).body.data[0]!.id
      const res = await t.request<Problem>('PUT', `/api/v1/personal-details/${id}`, {
        token: tutor.token,
        raw: '{"gender":',
        headers: { 'content-type': 'application/json' },
      })
      expect(res.status).toBe(400)
      expect(res.body.code).toBe('malformed_request')
    })
  })

  describe('profiles', () => {
    it("lists the caller's profile with the CONTRACT fields, media URLs null without files", async () => {
      const res = await t.request<Page<Record<string, unknown>>>('GET', '/api/v1/profiles', { token: tutor.token })
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual([
        {
          id: expect.any(Number),
          user_id: tutor.user.id,
          bio: null,
          teacher_reference_number: null,
          tutoring_experience_months: null,
          is_visible: false,
          profile_picture_url: null,
          profile_video_url: null,
        },
      ])
    })

    it('points the media URLs at the resources routes once files are set', async () => {
      const { id } = await t.db.selectFrom('profiles').select('id').where('user_id', '=', student.user.id).executeTakeFirstOrThrow()
      for (const [fileId, purpose] of [
        ['00000000-0000-4000-8000-000000000001', 'profile_image'],
        ['00000000-0000-4000-8000-000000000002', 'profile_video'],
      ] as const) {
        await t.db
          .insertInto('files')
          .values({ id: fileId, owner_id: student.user.id, purpose, name: 'x', mime_type: 'image/png', size: 1, storage_key: fileId, deleted_at: null })
          .execute()
      }
      await t.db
        .updateTable('profiles')
        .set({ profile_picture_file_id: '00000000-0000-4000-8000-000000000001', profile_video_file_id: '00000000-0000-4000-8000-000000000002' })
        .where('id', '=', id)
        .execute()
      const res = await t.request<Page<Record<string, unknown>>>('GET', '/api/v1/profiles', { token: student.token })
      expect(res.body.data[0]).toMatchObject({
        profile_picture_url: `http://api.test/api/resources/profile-image/${student.user.id}`,
        profile_video_url: `http://api.test/api/resources/profile-video/${student.user.id}`,
      })
    })

    it('changes bio, teacher reference number, experience and visibility, each alone or together', async () => {
      const id = (await t.request<Page<{ id: number }>>('GET', '/api/v1/profiles', { token: tutor.token })).body.data[0]!.id
      const url = `/api/v1/profiles/${id}`
      const all = await t.request<{ data: Record<string, unknown> }>('PUT', url, {
        token: tutor.token,
        body: { bio: '  Maths tutor.  ', teacher_reference_number: '1234567', tutoring_experience_months: 38, is_visible: true },
      })
      expect(all.status).toBe(200)
      expect(all.body.data).toMatchObject({
        id,
        bio: 'Maths tutor.',
        teacher_reference_number: '1234567',
        tutoring_experience_months: 38,
        is_visible: true,
      })
      const one = await t.request<{ data: Record<string, unknown> }>('PUT', url, { token: tutor.token, body: { is_visible: false } })
      expect(one.body.data).toMatchObject({ bio: 'Maths tutor.', tutoring_experience_months: 38, is_visible: false })
      const cleared = await t.request<{ data: Record<string, unknown> }>('PUT', url, { token: tutor.token, body: { bio: '', teacher_reference_number: null } })
      expect(cleared.body.data).toMatchObject({ bio: null, teacher_reference_number: null })
    })

    it('takes a bio of exactly 500 characters, counting an emoji as one, and refuses 501', async () => {
      const id = (await t.request<Page<{ id: number }>>('GET', '/api/v1/profiles', { token: tutor.token })).body.data[0]!.id
      const url = `/api/v1/profiles/${id}`
      const longest = '🙂'.repeat(500)
      const ok = await t.request<{ data: { bio: string } }>('PUT', url, { token: tutor.token, body: { bio: longest } })
      expect(ok.status).toBe(200)
      expect(ok.body.data.bio).toBe(longest)
      const errors = await expectInvalid('PUT', url, tutor.token, { bio: 'a'.repeat(501) }, ['bio'])
      expect(errors.bio).toEqual(['must be at most 500 characters'])
      const stored = await t.db.selectFrom('profiles').select('bio').where('id', '=', id).executeTakeFirstOrThrow()
      expect(stored.bio).toBe(longest)
    })

    it('refuses wrong types, out-of-range experience and fields a client may not set', async () => {
      const id = (await t.request<Page<{ id: number }>>('GET', '/api/v1/profiles', { token: tutor.token })).body.data[0]!.id
      await expectInvalid(
        'PUT',
        `/api/v1/profiles/${id}`,
        tutor.token,
        { is_visible: 'yes', tutoring_experience_months: -1, user_id: 1, profile_picture_url: 'https://x.test/a.png' },
        ['is_visible', 'tutoring_experience_months', 'user_id', 'profile_picture_url'],
      )
      await expectInvalid('PUT', `/api/v1/profiles/${id}`, tutor.token, { tutoring_experience_months: 2.5 }, ['tutoring_experience_months'])
    })
  })

  describe('education', () => {
    it('adds, lists, changes and removes a record', async () => {
      const created = await t.request<{ data: Record<string, unknown> }>('POST', '/api/v1/education', {
        token: tutor.token,
        body: { institution: ' University of Leeds ', qualification: 'BSc', subject: 'Mathematics', start_year: 2008, end_year: 2011 },
      })
      expect(created.status).toBe(201)
      expect(created.body.data).toEqual({
        id: expect.any(Number),
        user_id: tutor.user.id,
        institution: 'University of Leeds',
        qualification: 'BSc',
        subject: 'Mathematics',
        start_year: 2008,
        end_year: 2011,
      })
      const id = created.body.data.id as number
      const minimal = await t.request<{ data: Record<string, unknown> }>('POST', '/api/v1/education', {
        token: tutor.token,
        body: { institution: 'Open University', qualification: 'MSc', start_year: 2020 },
      })
      expect(minimal.body.data).toMatchObject({ subject: null, end_year: null })

      const list = await t.request<Page<{ id: number }>>('GET', '/api/v1/education', { token: tutor.token })
      expect(list.body.data.map((e) => e.id)).toEqual([minimal.body.data.id, id])
      expect(list.body.meta.total).toBe(2)

      const changed = await t.request<{ data: Record<string, unknown> }>('PUT', `/api/v1/education/${id}`, {
        token: tutor.token,
        body: { subject: null, end_year: 2012 },
      })
      expect(changed.body.data).toMatchObject({ institution: 'University of Leeds', subject: null, end_year: 2012 })

      expect((await t.request('DELETE', `/api/v1/education/${id}`, { token: tutor.token })).status).toBe(204)
      expect(await t.db.selectFrom('education').select('id').where('id', '=', id).execute()).toEqual([])
    })

    it('refuses an end before the start, on creation and after a change, and missing or unknown fields', async () => {
      const errors = await expectInvalid('POST', '/api/v1/education', tutor.token, { institution: 'A', qualification: 'B', start_year: 2010, end_year: 2009 }, ['end_year'])
      expect(errors.end_year).toEqual(['must not be before start_year'])
      const missing = await expectInvalid('POST', '/api/v1/education', tutor.token, { start_year: 1800, grade: 'A' }, ['institution', 'qualification', 'start_year', 'grade'])
      expect(missing.institution).toEqual(['is required'])
      expect(missing.grade).toEqual(['is not an accepted field'])
      expect(missing.start_year).not.toEqual(['is required'])
      await expectInvalid('POST', '/api/v1/education', tutor.token, { institution: '  ', qualification: 'B', start_year: '2010' }, ['institution', 'start_year'])
      const created = await t.request<{ data: { id: number } }>('POST', '/api/v1/education', {
        token: tutor.token,
        body: { institution: 'A', qualification: 'B', start_year: 2010, end_year: 2012 },
      })
      await expectInvalid('PUT', `/api/v1/education/${created.body.data.id}`, tutor.token, { start_year: 2013 }, ['end_year'])
      await expectInvalid('PUT', `/api/v1/education/${created.body.data.id}`, tutor.token, { id: 5 }, ['id'])
      const stored = await t.db.selectFrom('education').selectAll().where('id', '=', created.body.data.id).executeTakeFirstOrThrow()
      expect(stored).toMatchObject({ start_year: 2010, end_year: 2012 })
    })

    it('paginates and refuses an out-of-range page size', async () => {
      const res = await t.request<Page<unknown>>('GET', '/api/v1/education?per_page=1&page=2', { token: tutor.token })
      expect(res.status).toBe(200)
      expect(res.body.meta).toMatchObject({ current_page: 2, per_page: 1 })
      expect((await t.request('GET', '/api/v1/education?per_page=101', { token: tutor.token })).status).toBe(422)
      expect((await t.request('GET', '/api/v1/education?user_id=abc', { token: tutor.token })).status).toBe(422)
    })
  })

  describe('professions', () => {
    it('adds, lists, changes and removes a profession', async () => {
      const created = await t.request<{ data: Record<string, unknown> }>('POST', '/api/v1/professions', {
        token: tutor.token,
        body: { title: 'Head of Maths', organisation: 'Leeds Grammar', start_date: '2015-09-01', description: 'Years 7 to 13.' },
      })
      expect(created.status).toBe(201)
      expect(created.body.data).toEqual({
        id: expect.any(Number),
        user_id: tutor.user.id,
        title: 'Head of Maths',
        organisation: 'Leeds Grammar',
        start_date: '2015-09-01',
        end_date: null,
        description: 'Years 7 to 13.',
      })
      const id = created.body.data.id as number
      const changed = await t.request<{ data: Record<string, unknown> }>('PUT', `/api/v1/professions/${id}`, {
        token: tutor.token,
        body: { end_date: '2020-07-31', description: null },
      })
      expect(changed.body.data).toMatchObject({ end_date: '2020-07-31', description: null, title: 'Head of Maths' })
      const list = await t.request<Page<{ id: number }>>('GET', '/api/v1/professions', { token: tutor.token })
      expect(list.body.data.map((p) => p.id)).toContain(id)
      expect((await t.request('DELETE', `/api/v1/professions/${id}`, { token: tutor.token })).status).toBe(204)
      expect(await t.db.selectFrom('professions').select('id').where('id', '=', id).execute()).toEqual([])
    })

    it('refuses an end before the start, a future start, bad dates and unknown fields', async () => {
      const errors = await expectInvalid('POST', '/api/v1/professions', tutor.token, { title: 'T', start_date: '2015-09-01', end_date: '2015-08-31' }, ['end_date'])
      expect(errors.end_date).toEqual(['must not be before start_date'])
      await expectInvalid('POST', '/api/v1/professions', tutor.token, { title: '', start_date: '2199-01-01', salary: 1 }, ['title', 'start_date', 'salary'])
      await expectInvalid('POST', '/api/v1/professions', tutor.token, { title: 'T', start_date: '01/09/2015' }, ['start_date'])
      await expectInvalid('POST', '/api/v1/professions', tutor.token, { title: 'T', start_date: '2015-09-01', description: 'x'.repeat(1001) }, ['description'])
    })
  })

  describe('children', () => {
    it("adds, lists, changes and soft-deletes a parent's child, keeping its id", async () => {
      const created = await t.request<{ data: Record<string, unknown> }>('POST', '/api/v1/children', {
        token: parent.token,
        body: { firstname: 'Kit', lastname: 'Doe', date_of_birth: '2015-06-01' },
      })
      expect(created.status).toBe(201)
      expect(created.body.data).toEqual({ id: expect.any(Number), parent_id: parent.user.id, firstname: 'Kit', lastname: 'Doe', date_of_birth: '2015-06-01' })
      const id = created.body.data.id as number

      const noBirthday = await t.request<{ data: Record<string, unknown> }>('POST', '/api/v1/children', {
        token: parent.token,
        body: { firstname: 'Sam', lastname: 'Doe' },
      })
      expect(noBirthday.body.data.date_of_birth).toBeNull()

      const changed = await t.request<{ data: Record<string, unknown> }>('PUT', `/api/v1/children/${id}`, {
        token: parent.token,
        body: { firstname: 'Kitty', date_of_birth: null },
      })
      expect(changed.body.data).toMatchObject({ id, firstname: 'Kitty', lastname: 'Doe', date_of_birth: null })

      expect((await t.request('DELETE', `/api/v1/children/${id}`, { token: parent.token })).status).toBe(204)
      const row = await t.db.selectFrom('children').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
      expect(row.deleted_at).toBeInstanceOf(Date)
      const list = await t.request<Page<{ id: number }>>('GET', '/api/v1/children', { token: parent.token })
      expect(list.body.data.map((c) => c.id)).not.toContain(id)
      expect((await t.request('PUT', `/api/v1/children/${id}`, { token: parent.token, body: { firstname: 'Back' } })).status).toBe(404)
    })

    it('refuses a missing name, a future birthday and unknown fields', async () => {
      await expectInvalid('POST', '/api/v1/children', parent.token, { firstname: 'Kit', date_of_birth: '2199-01-01', parent_id: 1 }, ['lastname', 'date_of_birth', 'parent_id'])
      await expectInvalid('POST', '/api/v1/children', parent.token, { firstname: 'K'.repeat(101), lastname: 'D' }, ['firstname'])
    })
  })

  it('answers 422, never 500, for values the database could not store', async () => {
    const id = (await t.request<Page<{ id: number }>>('GET', '/api/v1/personal-details', { token: parent.token })).body.data[0]!.id
    await expectInvalid('PUT', `/api/v1/personal-details/${id}`, parent.token, { language_ids: [99_999_999_999], date_of_birth: '0000-01-01' }, ['language_ids.0', 'date_of_birth'])
    await expectInvalid('POST', '/api/v1/education', parent.token, { institution: 'a\u0000b', qualification: 'x', start_year: 2000 }, ['institution'])
    await expectInvalid('POST', '/api/v1/children', parent.token, { firstname: 'a', lastname: 'b', date_of_birth: '0000-01-01' }, ['date_of_birth'])
    await expectInvalid('POST', '/api/v1/professions', parent.token, { title: 'T', start_date: '1899-12-31', end_date: '0000-02-29' }, ['start_date', 'end_date'])
    const profile = (await t.request<Page<{ id: number }>>('GET', '/api/v1/profiles', { token: parent.token })).body.data[0]!.id
    await expectInvalid('PUT', `/api/v1/profiles/${profile}`, parent.token, { bio: 'hi\u0000', teacher_reference_number: '\u0000' }, ['bio', 'teacher_reference_number'])
    expect((await t.request('GET', '/api/v1/education?user_id=1e30', { token: parent.token })).status).toBe(422)
    expect((await t.request('DELETE', '/api/v1/education/1e30', { token: parent.token })).status).toBe(404)
  })

  it('documents every profile route in /openapi.json', async () => {
    const doc = await t.request<{ paths: Record<string, Record<string, { description?: string }>> }>('GET', '/openapi.json')
    const expected: Record<string, string[]> = {
      '/api/v1/personal-details': ['get'],
      '/api/v1/personal-details/{id}': ['put'],
      '/api/v1/profiles': ['get'],
      '/api/v1/profiles/{id}': ['put'],
      '/api/v1/education': ['get', 'post'],
      '/api/v1/education/{id}': ['put', 'delete'],
      '/api/v1/professions': ['get', 'post'],
      '/api/v1/professions/{id}': ['put', 'delete'],
      '/api/v1/children': ['get', 'post'],
      '/api/v1/children/{id}': ['put', 'delete'],
      '/api/v1/addresses': ['get', 'post'],
      '/api/v1/addresses/{id}': ['put', 'delete'],
      '/api/v1/mobile-numbers': ['get', 'post'],
      '/api/v1/mobile-numbers/{id}': ['put', 'delete'],
      '/api/v1/user-devices': ['get', 'post'],
      '/api/v1/user-devices/{id}': ['put', 'delete'],
      '/api/social-links': ['get', 'post'],
      '/api/social-links/{id}': ['put', 'delete'],
    }
    for (const [path, methods] of Object.entries(expected)) {
      for (const method of methods) expect(doc.body.paths[path]?.[method], `${method} ${path}`).toBeDefined()
    }
    expect(doc.body.paths['/api/v1/personal-details/{id}']!.put!.description).toMatch(/language_ids/)
  })
})
