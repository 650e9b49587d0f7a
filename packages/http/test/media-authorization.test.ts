import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SAMPLES, testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from './support/harness'
import { upload } from './support/uploads'

type Actor = 'owner' | 'other' | 'internal' | 'anonymous'
type FileBody = { data: { id: string } }
type Call = { method: 'GET' | 'PUT' | 'DELETE' | 'POST'; path: string; json?: unknown; file?: Uint8Array }
/** What each actor gets: the owner, another user of the same role, internal staff, no token. */
type Row = { name: string; call: (actor: Actor) => Promise<Call>; expect: Record<Actor, number> }

/**
 * Every route of the files and media feature, walked as its owner, another tutor, an
 * internal user and anonymously.
 */
describe.each(testDatabaseKinds())('files and media authorization on %s', (kind) => {
  let t: TestContext
  const sessions = {} as Record<Exclude<Actor, 'anonymous'>, { token: string; user: { id: number } }>
  let ownerId: number

  beforeAll(async () => {
    t = await createTestContext(kind)
    sessions.owner = await t.register('tutor')
    sessions.other = await t.register('tutor')
    sessions.internal = await t.internalUser()
    ownerId = sessions.owner.user.id
    await upload(t, `/api/v1/users/${ownerId}/profile/image`, SAMPLES.png, { token: sessions.owner.token })
    await upload(t, `/api/v1/users/${ownerId}/profile/video`, SAMPLES.mp4, { token: sessions.owner.token })
    for (const docKind of ['dbs', 'qualification'] as const) {
      const file = await upload<FileBody>(t, '/api/files', SAMPLES.pdf, { token: sessions.owner.token, fields: { purpose: docKind } })
      await t.db
        .insertInto('verifications')
        .values({ user_id: ownerId, kind: docKind, status: 'PENDING', reference: `ref_${docKind}_${ownerId}`, redirect_url: null, document_file_id: file.body.data.id, certificate_number: null, issue_date: null, reviewed_by: null })
        .execute()
    }
  })
  afterAll(() => t.close())

  /** A fresh file of the owner for each call, so a delete by one actor leaves the next its own. */
  const ownersFile = async () => (await upload<FileBody>(t, '/api/files', SAMPLES.pdf, { token: sessions.owner.token, name: 'owned.pdf' })).body.data.id
  const signedStorageLink = async () => {
    const res = await t.request('GET', `/api/resources/profile-image/${ownerId}`)
    const url = new URL(res.headers.get('location')!)
    return `${url.pathname}${url.search}`
  }

  const everyone = (status: number) => ({ owner: status, other: status, internal: status, anonymous: status })
  const rows: Row[] = [
    ...['/api/files', '/api/v1/files'].flatMap((base): Row[] => [
      { name: `POST ${base} (image)`, call: async () => ({ method: 'POST', path: base, file: SAMPLES.png }), expect: everyone(201) },
      { name: `POST ${base} (PDF)`, call: async () => ({ method: 'POST', path: base, file: SAMPLES.pdf }), expect: { owner: 201, other: 201, internal: 201, anonymous: 401 } },
      { name: `GET ${base}`, call: async () => ({ method: 'GET', path: base }), expect: { owner: 200, other: 200, internal: 200, anonymous: 401 } },
      { name: `GET ${base}/{id}`, call: async () => ({ method: 'GET', path: `${base}/${await ownersFile()}` }), expect: { owner: 200, other: 404, internal: 200, anonymous: 401 } },
      { name: `PUT ${base}/{id}`, call: async () => ({ method: 'PUT', path: `${base}/${await ownersFile()}`, json: { name: 'renamed.pdf' } }), expect: { owner: 200, other: 404, internal: 200, anonymous: 401 } },
      { name: `DELETE ${base}/{id}`, call: async () => ({ method: 'DELETE', path: `${base}/${await ownersFile()}` }), expect: { owner: 204, other: 404, internal: 204, anonymous: 401 } },
    ]),
    { name: 'POST /api/v1/users/{id}/profile/image', call: async () => ({ method: 'POST', path: `/api/v1/users/${ownerId}/profile/image`, file: SAMPLES.png }), expect: { owner: 200, other: 403, internal: 200, anonymous: 401 } },
    { name: 'POST /api/v1/users/{id}/profile/video', call: async () => ({ method: 'POST', path: `/api/v1/users/${ownerId}/profile/video`, file: SAMPLES.webm }), expect: { owner: 200, other: 403, internal: 200, anonymous: 401 } },
    { name: 'GET /api/resources/profile-image/{id}', call: async () => ({ method: 'GET', path: `/api/resources/profile-image/${ownerId}` }), expect: everyone(302) },
    { name: 'GET /api/resources/profile-video/{id}', call: async () => ({ method: 'GET', path: `/api/resources/profile-video/${ownerId}` }), expect: everyone(302) },
    { name: 'GET /api/resources/dbs-image/{id}', call: async () => ({ method: 'GET', path: `/api/resources/dbs-image/${ownerId}` }), expect: { owner: 302, other: 404, internal: 302, anonymous: 401 } },
    { name: 'GET /api/resources/qualification-image/{id}', call: async () => ({ method: 'GET', path: `/api/resources/qualification-image/${ownerId}` }), expect: { owner: 302, other: 404, internal: 302, anonymous: 401 } },
    { name: 'GET /api/resources/mobile/app-config.json', call: async () => ({ method: 'GET', path: '/api/resources/mobile/app-config.json' }), expect: everyone(200) },
    { name: 'GET /storage/{key} (signed: the link is the permission)', call: async () => ({ method: 'GET', path: await signedStorageLink() }), expect: everyone(200) },
    { name: 'GET /storage/{key} (unsigned)', call: async () => ({ method: 'GET', path: (await signedStorageLink()).split('?')[0]! }), expect: everyone(403) },
  ]

  it.each(rows)('$name', async (row) => {
    const seen: Record<string, number> = {}
    for (const actor of ['owner', 'other', 'internal', 'anonymous'] as const) {
      const call = await row.call(actor)
      const token = actor === 'anonymous' ? undefined : sessions[actor].token
      const res = call.file
        ? await upload(t, call.path, call.file, { token, name: 'walk.bin' })
        : await t.request(call.method, call.path, { token, ...(call.json ? { body: call.json } : {}) })
      seen[actor] = res.status
    }
    expect(seen).toEqual(row.expect)
  })
})
