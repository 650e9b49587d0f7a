import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SAMPLES, SAMPLE_TYPES, padded, testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from './support/harness'
import { follow, spooledUploads, storedObjects, upload } from './support/uploads'

type FileBody = { data: { id: string; name: string; mime_type: string; size: number; created_at: string } }
type ListBody = { data: FileBody['data'][]; meta: { current_page: number; per_page: number; total: number; last_page: number } }
type Problem = { status: number; code: string; detail?: string; errors?: Record<string, string[]> }

const MIB = 1024 * 1024

describe.each(testDatabaseKinds())('files on %s', (kind) => {
  let t: TestContext
  let student: Awaited<ReturnType<TestContext['register']>>
  beforeAll(async () => {
    t = await createTestContext(kind)
    student = await t.register('student')
  })
  afterAll(() => t.close())

  const fileRow = (id: string) => t.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst()
  const rowCount = async () => Number((await t.db.selectFrom('files').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n)

  describe('upload', () => {
    it.each(Object.entries(SAMPLE_TYPES))('stores a %s, typed by its content', async (sample, mime) => {
      const bytes = SAMPLES[sample as keyof typeof SAMPLE_TYPES]
      const res = await upload<FileBody>(t, '/api/files', bytes, { token: student.token, name: `upload-${sample}.bin`, type: 'text/plain' })
      expect(res.status).toBe(201)
      expect(res.body.data).toEqual({ id: expect.any(String), name: `upload-${sample}.bin`, mime_type: mime, size: bytes.length, created_at: expect.any(String) })
      expect(res.body.data.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      const row = await fileRow(res.body.data.id)
      expect(row).toMatchObject({ owner_id: student.user.id, purpose: 'general', mime_type: mime, deleted_at: null })
      expect(await storedObjects(t)).toContain(row!.storage_key)
    })

    it('serves the legacy family the same way, and takes the purpose before or after the file', async () => {
      const after = await upload<FileBody>(t, '/api/v1/files', SAMPLES.pdf, { token: student.token, name: 'dbs.pdf', fields: { purpose: 'dbs' } })
      expect(after.status).toBe(201)
      expect((await fileRow(after.body.data.id))?.purpose).toBe('dbs')
      const before = await upload<FileBody>(t, '/api/v1/files', SAMPLES.webp, { token: student.token, name: 'me.webp', fields: { purpose: 'profile_picture' }, fieldsFirst: true })
      expect(before.status).toBe(201)
      expect((await fileRow(before.body.data.id))?.purpose).toBe('profile_picture')
    })

    it('keeps only the last segment of a path-like file name', async () => {
      const res = await upload<FileBody>(t, '/api/files', SAMPLES.png, { token: student.token, name: 'C:\\fakepath\\holiday.png' })
      expect(res.body.data.name).toBe('holiday.png')
    })

    it('refuses text named .png and declared image/png with 415, leaving no row, object or spool behind', async () => {
      const rows = await rowCount()
      const objects = await storedObjects(t)
      const res = await upload<Problem>(t, '/api/files', SAMPLES.text, { token: student.token, name: 'photo.png', type: 'image/png' })
      expect(res.status).toBe(415)
      expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8')
      expect(res.body).toMatchObject({ status: 415, code: 'unsupported_media_type' })
      expect(await rowCount()).toBe(rows)
      expect(await storedObjects(t)).toEqual(objects)
      expect(await spooledUploads(t)).toEqual([])
    })

    it('refuses a real image of a type it does not take (GIF) with 415', async () => {
      const res = await upload<Problem>(t, '/api/files', SAMPLES.gif, { token: student.token, name: 'anim.gif', type: 'image/gif' })
      expect(res.status).toBe(415)
      expect(res.body.detail).toContain('image/gif')
    })

    it('refuses a type the purpose does not take with 415', async () => {
      const res = await upload<Problem>(t, '/api/files', SAMPLES.pdf, { token: student.token, name: 'me.pdf', fields: { purpose: 'profile_picture' } })
      expect(res.status).toBe(415)
    })

    it('takes an image of exactly 10 MiB and refuses one byte more with 413, leaving nothing behind', async () => {
      const exact = await upload<FileBody>(t, '/api/files', padded('png', 10 * MIB), { token: student.token, name: 'big.png' })
      expect(exact.status).toBe(201)
      expect(exact.body.data.size).toBe(10 * MIB)
      const rows = await rowCount()
      const objects = await storedObjects(t)
      const over = await upload<Problem>(t, '/api/files', padded('png', 10 * MIB + 1), { token: student.token, name: 'bigger.png' })
      expect(over.status).toBe(413)
      expect(over.body.code).toBe('payload_too_large')
      expect(await rowCount()).toBe(rows)
      expect(await storedObjects(t)).toEqual(objects)
      expect(await spooledUploads(t)).toEqual([])
    })

    it('refuses a PDF over 10 MiB with 413', async () => {
      const res = await upload<Problem>(t, '/api/files', padded('pdf', 10 * MIB + 1), { token: student.token, name: 'thesis.pdf' })
      expect(res.status).toBe(413)
    })

    it('refuses a body that announces more than the largest upload before reading it', async () => {
      const res = await t.app.request('/api/files', {
        method: 'POST',
        headers: { authorization: `Bearer ${student.token}`, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(202 * MIB) },
        body: '--x--',
      })
      expect(res.status).toBe(413)
      expect(((await res.json()) as Problem).code).toBe('payload_too_large')
    })

    it('answers 400 for a body that is not multipart and 422 without a file part', async () => {
      const json = await t.request<Problem>('POST', '/api/files', { token: student.token, body: { file: 'x' } })
      expect(json.status).toBe(400)
      expect(json.body.code).toBe('malformed_request')
      const form = new FormData()
      form.append('purpose', 'general')
      const res = await t.app.request('/api/files', { method: 'POST', body: form, headers: { authorization: `Bearer ${student.token}` } })
      expect(res.status).toBe(422)
      expect(((await res.json()) as Problem).errors).toEqual({ file: ['is required'] })
    })

    it('answers 422 for an empty file, an unknown purpose and an unknown field, and 400 for a broken body', async () => {
      const empty = await upload<Problem>(t, '/api/files', new Uint8Array(), { token: student.token, name: 'empty.png' })
      expect(empty.status).toBe(422)
      expect(empty.body.errors).toEqual({ file: ['must not be empty'] })
      const unknown = await upload<Problem>(t, '/api/files', SAMPLES.png, { token: student.token, name: 'a.png', fields: { purpose: 'wallpaper', owner_id: '1' } })
      expect(unknown.status).toBe(422)
      expect(Object.keys(unknown.body.errors!).sort()).toEqual(['owner_id', 'purpose'])
      const broken = await t.app.request('/api/files', {
        method: 'POST',
        headers: { authorization: `Bearer ${student.token}`, 'content-type': 'multipart/form-data; boundary=abc' },
        body: '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nno closing boundary',
      })
      expect(broken.status).toBe(400)
      expect(await spooledUploads(t)).toEqual([])
    })

    it('takes a file part sent without a file name', async () => {
      const res = await upload<FileBody>(t, '/api/files', SAMPLES.jpeg, { token: student.token, name: null })
      expect(res.status).toBe(201)
      expect(res.body.data.mime_type).toBe('image/jpeg')
    })
  })

  describe('anonymous upload', () => {
    it('takes an image with no owner, which registration then claims as the profile picture', async () => {
      const res = await upload<FileBody>(t, '/api/files', SAMPLES.png, { name: 'me.png', fields: { purpose: 'profile_picture' } })
      expect(res.status).toBe(201)
      expect((await fileRow(res.body.data.id))?.owner_id).toBeNull()
      const { user } = await t.register('tutor', { profile_picture: res.body.data.id })
      expect((await fileRow(res.body.data.id))?.owner_id).toBe(user.id)
      const redirect = await t.request('GET', `/api/resources/profile-image/${user.id}`)
      expect(redirect.status).toBe(302)
      const image = await follow(t, redirect.headers.get('location')!)
      expect(image.status).toBe(200)
      expect(new Uint8Array(await image.arrayBuffer())).toEqual(SAMPLES.png)
    })

    it('refuses anything but an image without a token (401), and stores nothing', async () => {
      const rows = await rowCount()
      for (const sample of ['pdf', 'mp4'] as const) {
        const res = await upload<Problem>(t, '/api/files', SAMPLES[sample], { name: `x.${sample}` })
        expect(res.status).toBe(401)
        expect(res.body.code).toBe('unauthenticated')
      }
      expect(await rowCount()).toBe(rows)
    })

    it('treats a token that does not work as a 401, not as anonymous', async () => {
      const res = await upload<Problem>(t, '/api/files', SAMPLES.png, { token: 'x'.repeat(43), name: 'me.png' })
      expect(res.status).toBe(401)
    })

    it('keeps an unclaimed upload out of sight of everyone but internal staff', async () => {
      const res = await upload<FileBody>(t, '/api/files', SAMPLES.png, { name: 'anon.png' })
      const id = res.body.data.id
      expect((await t.request('GET', `/api/files/${id}`, { token: student.token })).status).toBe(404)
      const staff = await t.internalUser()
      expect((await t.request('GET', `/api/files/${id}`, { token: staff.token })).status).toBe(200)
    })
  })

  describe('metadata', () => {
    let id: string
    beforeAll(async () => {
      id = (await upload<FileBody>(t, '/api/files', SAMPLES.pdf, { token: student.token, name: 'notes.pdf' })).body.data.id
    })

    it('answers the owner on both families', async () => {
      for (const base of ['/api/files', '/api/v1/files']) {
        const res = await t.request<FileBody>('GET', `${base}/${id}`, { token: student.token })
        expect(res.status).toBe(200)
        expect(res.body.data).toMatchObject({ id, name: 'notes.pdf', mime_type: 'application/pdf', size: SAMPLES.pdf.length })
        expect(res.headers.get('etag')).toBeTruthy()
      }
    })

    it('answers 404 for a malformed id, an unknown id and a file of someone else', async () => {
      const other = await t.register('student')
      for (const path of ['/api/files/not-a-uuid', '/api/files/123', `/api/files/${crypto.randomUUID()}`, `/api/files/${id}`]) {
        const res = await t.request<Problem>('GET', path, { token: other.token })
        expect(res.status).toBe(404)
        expect(res.body.code).toBe('not_found')
      }
    })

    it('renames, keeping the type; refuses unknown fields and empty names', async () => {
      const res = await t.request<FileBody>('PUT', `/api/v1/files/${id}`, { token: student.token, body: { name: 'lesson notes.pdf' } })
      expect(res.status).toBe(200)
      expect(res.body.data).toMatchObject({ name: 'lesson notes.pdf', mime_type: 'application/pdf' })
      const bad = await t.request<Problem>('PUT', `/api/files/${id}`, { token: student.token, body: { name: ' ', mime_type: 'image/png' } })
      expect(bad.status).toBe(422)
      expect(Object.keys(bad.body.errors!).sort()).toEqual(['mime_type', 'name'])
    })

    it("lists only the caller's live files, newest first, paginated", async () => {
      const owner = await t.register('parent')
      const ids: string[] = []
      for (let i = 0; i < 3; i++) {
        ids.push((await upload<FileBody>(t, '/api/files', SAMPLES.png, { token: owner.token, name: `p${i}.png` })).body.data.id)
      }
      await t.request('DELETE', `/api/files/${ids[1]}`, { token: owner.token })
      const page1 = await t.request<ListBody>('GET', '/api/files?per_page=1', { token: owner.token })
      expect(page1.status).toBe(200)
      expect(page1.body.meta).toEqual({ current_page: 1, per_page: 1, total: 2, last_page: 2 })
      const all = await t.request<ListBody>('GET', '/api/v1/files', { token: owner.token })
      expect(all.body.data.map((f) => f.name).sort()).toEqual(['p0.png', 'p2.png'])
      expect((await t.request('GET', '/api/files?per_page=101', { token: owner.token })).status).toBe(422)
    })

    it('deletes softly: the row stays marked, the object goes, and the id is a 404 after', async () => {
      const created = await upload<FileBody>(t, '/api/files', SAMPLES.png, { token: student.token, name: 'bye.png' })
      const key = (await fileRow(created.body.data.id))!.storage_key
      expect(await storedObjects(t)).toContain(key)
      const res = await t.request('DELETE', `/api/v1/files/${created.body.data.id}`, { token: student.token })
      expect(res.status).toBe(204)
      expect((await fileRow(created.body.data.id))?.deleted_at).toBeInstanceOf(Date)
      expect(await storedObjects(t)).not.toContain(key)
      expect((await t.request('GET', `/api/files/${created.body.data.id}`, { token: student.token })).status).toBe(404)
      expect((await t.request('DELETE', `/api/files/${created.body.data.id}`, { token: student.token })).status).toBe(404)
    })
  })

  describe('documentation', () => {
    it('documents every files and media route with its bodies', async () => {
      const doc = await t.request<{ paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>> }>('GET', '/openapi.json')
      const paths = doc.body.paths
      for (const p of ['/api/files', '/api/v1/files']) {
        expect(Object.keys(paths[p]!).sort()).toEqual(['get', 'post'])
        expect(Object.keys(paths[p]!.post!.requestBody!.content)).toEqual(['multipart/form-data'])
      }
      for (const p of ['/api/files/{id}', '/api/v1/files/{id}']) expect(Object.keys(paths[p]!).sort()).toEqual(['delete', 'get', 'put'])
      for (const p of ['/api/v1/users/{id}/profile/image', '/api/v1/users/{id}/profile/video']) expect(paths[p]?.post?.requestBody).toBeDefined()
      for (const kind of ['profile-image', 'profile-video', 'dbs-image', 'qualification-image']) expect(paths[`/api/resources/${kind}/{id}`]?.get).toBeDefined()
      expect(paths['/api/resources/mobile/{path}']?.get).toBeDefined()
      expect(paths['/storage/{key}']?.get).toBeDefined()
    })
  })
})

describe.each(testDatabaseKinds())('upload limits from configuration on %s', (kind) => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestContext(kind, { UPLOAD_MAX_VIDEO_BYTES: '4096', UPLOAD_MAX_IMAGE_BYTES: '1024' })
  })
  afterAll(() => t.close())

  it('holds videos to the video limit and images to the image limit', async () => {
    const { token } = await t.register('tutor')
    expect((await upload(t, '/api/files', padded('mp4', 4096), { token, name: 'v.mp4' })).status).toBe(201)
    expect((await upload(t, '/api/files', padded('webm', 4097), { token, name: 'v.webm' })).status).toBe(413)
    expect((await upload(t, '/api/files', padded('quicktime', 2000), { token, name: 'v.mov' })).status).toBe(201)
    expect((await upload(t, '/api/files', padded('jpeg', 2000), { token, name: 'i.jpg' })).status).toBe(413)
    expect(await storedObjects(t)).toHaveLength(2)
    expect(await spooledUploads(t)).toEqual([])
  })

  it('stops reading a body past the largest limit and its slack', async () => {
    const { token } = await t.register('tutor')
    const res = await upload(t, '/api/files', padded('mp4', 2 * MIB), { token, name: 'huge.mp4' })
    expect(res.status).toBe(413)
    expect(await spooledUploads(t)).toEqual([])
  })
})
