import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SAMPLES, startLocalS3, testDatabaseKinds, type LocalS3 } from '@tutoring/adapters/testing'
import { fakeClock } from '@tutoring/testkit'
import { createTestContext, type TestContext } from './support/harness'
import { follow, storedObjects, upload } from './support/uploads'

type Profile = {
  data: {
    id: number
    user_id: number
    bio: string | null
    teacher_reference_number: string | null
    tutoring_experience_months: number | null
    is_visible: boolean
    profile_picture_url: string | null
    profile_video_url: string | null
  }
}
type Problem = { status: number; code: string; errors?: Record<string, string[]> }
type FileBody = { data: { id: string } }

describe.each(testDatabaseKinds())('profile media and resources on %s', (kind) => {
  let t: TestContext
  const clock = fakeClock(new Date('2026-11-22T10:00:00Z'))
  beforeAll(async () => {
    t = await createTestContext(kind, {}, { clock })
  })
  afterAll(() => t.close())

  const profileRow = (userId: number) => t.db.selectFrom('profiles').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow()
  const fileRow = (id: string) => t.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

  /** Uploads a document and makes it the user's DBS or qualification document, as the verification flow will. */
  async function giveDocument(session: { token: string; user: { id: number } }, kind: 'dbs' | 'qualification', bytes: Uint8Array = SAMPLES.pdf) {
    const file = await upload<FileBody>(t, '/api/files', bytes, { token: session.token, name: `${kind}.pdf`, fields: { purpose: kind } })
    await t.db
      .insertInto('verifications')
      .values({ user_id: session.user.id, kind, status: 'PENDING', reference: `${kind}_${file.body.data.id}`, redirect_url: null, document_file_id: file.body.data.id, certificate_number: null, issue_date: null, reviewed_by: null })
      .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet({ document_file_id: file.body.data.id }))
      .execute()
    return file.body.data.id
  }

  describe('profile image and video', () => {
    it('sets the picture and answers the profile with the resource URL', async () => {
      const tutor = await t.register('tutor')
      const res = await upload<Profile>(t, `/api/v1/users/${tutor.user.id}/profile/image`, SAMPLES.jpeg, { token: tutor.token, name: 'me.jpg' })
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual({
        id: expect.any(Number),
        user_id: tutor.user.id,
        bio: null,
        teacher_reference_number: null,
        tutoring_experience_months: null,
        is_visible: false,
        profile_picture_url: `http://api.test/api/resources/profile-image/${tutor.user.id}`,
        profile_video_url: null,
      })
      const fileId = (await profileRow(tutor.user.id)).profile_picture_file_id!
      expect(await fileRow(fileId)).toMatchObject({ owner_id: tutor.user.id, purpose: 'profile_picture', mime_type: 'image/jpeg' })
    })

    it('replaces the picture: the old file is soft-deleted and its bytes removed', async () => {
      const tutor = await t.register('tutor')
      await upload(t, `/api/v1/users/${tutor.user.id}/profile/image`, SAMPLES.png, { token: tutor.token, name: 'old.png' })
      const oldId = (await profileRow(tutor.user.id)).profile_picture_file_id!
      const oldKey = (await fileRow(oldId)).storage_key
      const res = await upload<Profile>(t, `/api/v1/users/${tutor.user.id}/profile/image`, SAMPLES.webp, { token: tutor.token, name: 'new.webp' })
      expect(res.status).toBe(200)
      const newId = (await profileRow(tutor.user.id)).profile_picture_file_id!
      expect(newId).not.toBe(oldId)
      expect((await fileRow(oldId)).deleted_at).toBeInstanceOf(Date)
      expect(await storedObjects(t)).not.toContain(oldKey)
      const image = await follow(t, (await t.request('GET', `/api/resources/profile-image/${tutor.user.id}`)).headers.get('location')!)
      expect(new Uint8Array(await image.arrayBuffer())).toEqual(SAMPLES.webp)
    })

    it('sets and replaces the video', async () => {
      const tutor = await t.register('tutor')
      const first = await upload<Profile>(t, `/api/v1/users/${tutor.user.id}/profile/video`, SAMPLES.mp4, { token: tutor.token, name: 'intro.mp4' })
      expect(first.status).toBe(200)
      expect(first.body.data.profile_video_url).toBe(`http://api.test/api/resources/profile-video/${tutor.user.id}`)
      const oldId = (await profileRow(tutor.user.id)).profile_video_file_id!
      const second = await upload<Profile>(t, `/api/v1/users/${tutor.user.id}/profile/video`, SAMPLES.quicktime, { token: tutor.token, name: 'intro.mov' })
      expect(second.status).toBe(200)
      expect((await fileRow(oldId)).deleted_at).toBeInstanceOf(Date)
      const fresh = await fileRow((await profileRow(tutor.user.id)).profile_video_file_id!)
      expect(fresh).toMatchObject({ mime_type: 'video/quicktime', purpose: 'profile_video' })
    })

    it('refuses a video as the picture, a picture as the video and text as either (415), changing nothing', async () => {
      const tutor = await t.register('tutor')
      const cases = [
        ['image', SAMPLES.mp4],
        ['image', SAMPLES.pdf],
        ['image', SAMPLES.text],
        ['video', SAMPLES.png],
        ['video', SAMPLES.text],
      ] as const
      for (const [slot, bytes] of cases) {
        const res = await upload<Problem>(t, `/api/v1/users/${tutor.user.id}/profile/${slot}`, bytes, { token: tutor.token, name: 'x.png', type: 'image/png' })
        expect(res.status).toBe(415)
        expect(res.body.code).toBe('unsupported_media_type')
      }
      expect(await profileRow(tutor.user.id)).toMatchObject({ profile_picture_file_id: null, profile_video_file_id: null })
      expect(await t.db.selectFrom('files').select('id').where('owner_id', '=', tutor.user.id).execute()).toEqual([])
    })

    it('lets internal staff set it for a user, who then owns the file', async () => {
      const tutor = await t.register('tutor')
      const staff = await t.internalUser()
      const res = await upload<Profile>(t, `/api/v1/users/${tutor.user.id}/profile/image`, SAMPLES.png, { token: staff.token, name: 'x.png' })
      expect(res.status).toBe(200)
      expect((await fileRow((await profileRow(tutor.user.id)).profile_picture_file_id!)).owner_id).toBe(tutor.user.id)
    })

    it('answers 403 for another user, 404 for an unknown or malformed user id, 401 without a token, 422 for extra parts', async () => {
      const tutor = await t.register('tutor')
      const other = await t.register('tutor')
      expect((await upload(t, `/api/v1/users/${tutor.user.id}/profile/image`, SAMPLES.png, { token: other.token })).status).toBe(403)
      expect((await upload(t, '/api/v1/users/999999/profile/image', SAMPLES.png, { token: other.token })).status).toBe(404)
      expect((await upload(t, '/api/v1/users/abc/profile/video', SAMPLES.mp4, { token: other.token })).status).toBe(404)
      expect((await upload(t, `/api/v1/users/${tutor.user.id}/profile/image`, SAMPLES.png)).status).toBe(401)
      const extra = await upload<Problem>(t, `/api/v1/users/${tutor.user.id}/profile/image`, SAMPLES.png, { token: tutor.token, fields: { purpose: 'general' } })
      expect(extra.status).toBe(422)
      expect(extra.body.errors).toEqual({ purpose: ['is not an accepted field'] })
      expect(await profileRow(tutor.user.id)).toMatchObject({ profile_picture_file_id: null })
    })

    it('forgets the picture when its file is deleted', async () => {
      const tutor = await t.register('tutor')
      const res = await upload<Profile>(t, `/api/v1/users/${tutor.user.id}/profile/image`, SAMPLES.png, { token: tutor.token })
      expect(res.status).toBe(200)
      const fileId = (await profileRow(tutor.user.id)).profile_picture_file_id!
      expect((await t.request('DELETE', `/api/files/${fileId}`, { token: tutor.token })).status).toBe(204)
      expect((await profileRow(tutor.user.id)).profile_picture_file_id).toBeNull()
      expect((await t.request('GET', `/api/resources/profile-image/${tutor.user.id}`)).status).toBe(404)
    })
  })

  describe('resource redirects', () => {
    let tutor: Awaited<ReturnType<TestContext['register']>>
    beforeAll(async () => {
      tutor = await t.register('tutor')
      await upload(t, `/api/v1/users/${tutor.user.id}/profile/image`, SAMPLES.png, { token: tutor.token, name: 'me.png' })
      await upload(t, `/api/v1/users/${tutor.user.id}/profile/video`, SAMPLES.webm, { token: tutor.token, name: 'me.webm' })
    })

    it('redirects anyone to a signed link of the picture, valid five minutes, that serves the bytes inline', async () => {
      const res = await t.request('GET', `/api/resources/profile-image/${tutor.user.id}`)
      expect(res.status).toBe(302)
      expect(res.headers.get('cache-control')).toBe('no-store')
      const location = new URL(res.headers.get('location')!)
      expect(location.origin).toBe('http://api.test')
      expect(location.pathname).toMatch(/^\/storage\/files\/[0-9a-f-]{36}$/)
      expect(Number(location.searchParams.get('expires'))).toBe(clock.now().getTime() / 1000 + 300)
      expect(location.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/)
      const image = await follow(t, location.toString())
      expect(image.status).toBe(200)
      expect(image.headers.get('content-type')).toBe('image/png')
      expect(image.headers.get('content-disposition')).toBe('inline')
      expect(image.headers.get('x-content-type-options')).toBe('nosniff')
      expect(new Uint8Array(await image.arrayBuffer())).toEqual(SAMPLES.png)
    })

    it('redirects to the video with a link valid five days', async () => {
      const res = await t.request('GET', `/api/resources/profile-video/${tutor.user.id}`)
      expect(res.status).toBe(302)
      const location = new URL(res.headers.get('location')!)
      expect(Number(location.searchParams.get('expires'))).toBe(clock.now().getTime() / 1000 + 5 * 86_400)
      const video = await follow(t, location.toString())
      expect(video.headers.get('content-type')).toBe('video/webm')
      expect(new Uint8Array(await video.arrayBuffer())).toEqual(SAMPLES.webm)
    })

    it('refuses a tampered, unsigned or expired link with 403 invalid_signature', async () => {
      const location = new URL((await t.request('GET', `/api/resources/profile-image/${tutor.user.id}`)).headers.get('location')!)
      const signature = location.searchParams.get('signature')!
      const tampered = new URL(location)
      tampered.searchParams.set('signature', `${signature[0] === 'a' ? 'b' : 'a'}${signature.slice(1)}`)
      const stretched = new URL(location)
      stretched.searchParams.set('expires', String(Number(location.searchParams.get('expires')) + 3600))
      const otherKey = new URL(location)
      otherKey.pathname = '/storage/files/00000000-0000-4000-8000-000000000000'
      for (const url of [tampered, stretched, otherKey, new URL(location.pathname, location)]) {
        const res = await follow(t, url.toString())
        expect(res.status).toBe(403)
        expect(((await res.json()) as Problem).code).toBe('invalid_signature')
      }
      clock.advance(301_000)
      try {
        const expired = await follow(t, location.toString())
        expect(expired.status).toBe(403)
        expect(((await expired.json()) as Problem).code).toBe('invalid_signature')
      } finally {
        clock.advance(-301_000)
      }
    })

    it('answers 404 for a user without a picture, an unknown user and a malformed id', async () => {
      const bare = await t.register('student')
      for (const path of [`/api/resources/profile-image/${bare.user.id}`, `/api/resources/profile-video/${bare.user.id}`, '/api/resources/profile-image/999999', '/api/resources/profile-video/x1']) {
        expect((await t.request('GET', path)).status).toBe(404)
      }
    })

    it('answers 404 for the pictures of a deleted account', async () => {
      const gone = await t.register('tutor')
      await upload(t, `/api/v1/users/${gone.user.id}/profile/image`, SAMPLES.png, { token: gone.token })
      expect((await t.request('GET', `/api/resources/profile-image/${gone.user.id}`)).status).toBe(302)
      expect((await t.request('DELETE', '/api/auth', { token: gone.token })).status).toBe(204)
      expect((await t.request('GET', `/api/resources/profile-image/${gone.user.id}`)).status).toBe(404)
    })

    it('answers HEAD with the headers alone', async () => {
      const location = new URL((await t.request('GET', `/api/resources/profile-image/${tutor.user.id}`)).headers.get('location')!)
      const res = await t.app.request(`${location.pathname}${location.search}`, { method: 'HEAD' })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('image/png')
      expect(res.headers.get('content-length')).toBe(String(SAMPLES.png.length))
      expect(await res.text()).toBe('')
    })

    it('answers 304 to a repeated fetch of a stored object', async () => {
      const location = (await t.request('GET', `/api/resources/profile-image/${tutor.user.id}`)).headers.get('location')!
      const first = await follow(t, location)
      const etag = first.headers.get('etag')!
      const url = new URL(location)
      const again = await t.app.request(`${url.pathname}${url.search}`, { headers: { 'if-none-match': etag } })
      expect(again.status).toBe(304)
    })
  })

  describe('DBS and qualification documents', () => {
    it('redirect the owner and internal staff; anyone else is told there is nothing', async () => {
      const tutor = await t.register('tutor')
      const other = await t.register('tutor')
      const staff = await t.internalUser()
      await giveDocument(tutor, 'dbs', SAMPLES.pdf)
      await giveDocument(tutor, 'qualification', SAMPLES.jpeg)
      for (const [kind, bytes, type] of [['dbs-image', SAMPLES.pdf, 'application/pdf'], ['qualification-image', SAMPLES.jpeg, 'image/jpeg']] as const) {
        const path = `/api/resources/${kind}/${tutor.user.id}`
        for (const token of [tutor.token, staff.token]) {
          const res = await t.request('GET', path, { token })
          expect(res.status).toBe(302)
          const location = new URL(res.headers.get('location')!)
          expect(Number(location.searchParams.get('expires'))).toBe(clock.now().getTime() / 1000 + 300)
          const doc = await follow(t, location.toString())
          expect(doc.headers.get('content-type')).toBe(type)
          expect(new Uint8Array(await doc.arrayBuffer())).toEqual(bytes)
        }
        expect((await t.request<Problem>('GET', path, { token: other.token })).status).toBe(404)
        expect((await t.request<Problem>('GET', path)).status).toBe(401)
      }
    })

    it('answer 404 when no document was uploaded, even to the owner', async () => {
      const tutor = await t.register('tutor', { dbs: { certificate_number: '001234567890', issue_date: '2025-01-15' } })
      expect((await t.request('GET', `/api/resources/dbs-image/${tutor.user.id}`, { token: tutor.token })).status).toBe(404)
      expect((await t.request('GET', `/api/resources/qualification-image/${tutor.user.id}`, { token: tutor.token })).status).toBe(404)
    })

    it('is no longer served once its file is deleted', async () => {
      const tutor = await t.register('tutor')
      const fileId = await giveDocument(tutor, 'dbs')
      expect((await t.request('DELETE', `/api/files/${fileId}`, { token: tutor.token })).status).toBe(204)
      expect((await t.request('GET', `/api/resources/dbs-image/${tutor.user.id}`, { token: tutor.token })).status).toBe(404)
      const row = await t.db.selectFrom('verifications').select('document_file_id').where('user_id', '=', tutor.user.id).executeTakeFirstOrThrow()
      expect(row.document_file_id).toBeNull()
    })
  })

  describe('mobile assets', () => {
    it('serves the packaged files with their content types', async () => {
      const config = await t.request<{ api: { base_path: string } }>('GET', '/api/resources/mobile/app-config.json')
      expect(config.status).toBe(200)
      expect(config.headers.get('content-type')).toBe('application/json; charset=utf-8')
      expect(config.body.api.base_path).toBe('/api')
      const icon = await t.app.request('/api/resources/mobile/icon.png')
      expect(icon.status).toBe(200)
      expect(icon.headers.get('content-type')).toBe('image/png')
      expect(new Uint8Array(await icon.arrayBuffer()).subarray(0, 4)).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))
    })

    it('answers 404 for unknown assets and for any way out of the folder', async () => {
      for (const path of [
        '/api/resources/mobile/missing.json',
        '/api/resources/mobile/',
        '/api/resources/mobile/.hidden',
        '/api/resources/mobile/%2e%2e/%2e%2e/package.json',
        '/api/resources/mobile/..%2f..%2fpackage.json',
        '/api/resources/mobile/%2e%2e%2f%2e%2e%2fsrc%2fapp.ts',
        '/api/resources/mobile/app-config.json/x',
      ]) {
        const res = await t.request<Problem>('GET', path)
        expect(res.status, path).toBe(404)
        expect(res.body.code).toBe('not_found')
      }
      // A NUL never reaches the asset lookup: the URL guard refuses it first.
      const nul = await t.request<Problem>('GET', '/api/resources/mobile/app-config.json%00.png')
      expect(nul.status).toBe(400)
      expect(nul.body.code).toBe('malformed_request')
    })
  })
})

describe.each(testDatabaseKinds())('resources with S3-compatible storage on %s', (kind) => {
  let s3: LocalS3
  let t: TestContext
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY }
  beforeAll(async () => {
    s3 = await startLocalS3()
    // The standard AWS variables, as a deployment would set them.
    process.env.AWS_ACCESS_KEY_ID = s3.credentials.accessKeyId
    process.env.AWS_SECRET_ACCESS_KEY = s3.credentials.secretAccessKey
    t = await createTestContext(kind, { S3_ENDPOINT: s3.endpoint, S3_BUCKET: s3.bucket, S3_REGION: s3.region })
  })
  afterAll(async () => {
    await t?.close()
    await s3?.stop()
    process.env.AWS_ACCESS_KEY_ID = saved.id
    process.env.AWS_SECRET_ACCESS_KEY = saved.secret
    if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID
    if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY
  })

  it('redirects to presigned object URLs with the lifetimes of SPEC.md, which serve the bytes', async () => {
    const tutor = await t.register('tutor')
    expect((await upload(t, `/api/v1/users/${tutor.user.id}/profile/image`, SAMPLES.png, { token: tutor.token })).status).toBe(200)
    expect((await upload(t, `/api/v1/users/${tutor.user.id}/profile/video`, SAMPLES.mp4, { token: tutor.token })).status).toBe(200)
    for (const [kind, bytes, lifetime] of [['profile-image', SAMPLES.png, '300'], ['profile-video', SAMPLES.mp4, '432000']] as const) {
      const res = await t.request('GET', `/api/resources/${kind}/${tutor.user.id}`)
      expect(res.status).toBe(302)
      const location = new URL(res.headers.get('location')!)
      expect(location.origin).toBe(s3.endpoint)
      expect(location.pathname).toMatch(new RegExp(`^/${s3.bucket}/files/[0-9a-f-]{36}$`))
      expect(location.searchParams.get('X-Amz-Expires')).toBe(lifetime)
      const object = await fetch(location)
      expect(object.status).toBe(200)
      expect(new Uint8Array(await object.arrayBuffer())).toEqual(bytes)
    }
    expect(await storedObjects(t)).toEqual([])
  })

  it('removes the object from the bucket when the file is deleted', async () => {
    const student = await t.register('student')
    const created = await upload<FileBody>(t, '/api/files', SAMPLES.pdf, { token: student.token, name: 'a.pdf' })
    const row = await t.db.selectFrom('files').select('storage_key').where('id', '=', created.body.data.id).executeTakeFirstOrThrow()
    const objectUrl = await t.infra.storage.signedUrl(row.storage_key, { expiresInSeconds: 60 })
    expect((await fetch(objectUrl)).status).toBe(200)
    expect((await t.request('DELETE', `/api/files/${created.body.data.id}`, { token: student.token })).status).toBe(204)
    expect((await fetch(objectUrl)).status).toBe(404)
  })
})
