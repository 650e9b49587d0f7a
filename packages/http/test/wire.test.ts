import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, type TestContext } from './support/harness'

type Document = { paths: Record<string, Record<string, { description?: string; deprecated?: boolean }>> }

/** CONTRACT §16 "Operations": what a client sees of the legacy family, the alias and compression. */
describe('the wire', () => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestContext('pglite')
  })
  afterAll(() => t.close())

  describe('the legacy family', () => {
    it('answers Deprecation: true and links the current route where one exists', async () => {
      const student = await t.register('student')
      const subjects = await t.request('GET', '/api/v1/subjects', { token: student.token })
      expect(subjects.status).toBe(200)
      expect(subjects.headers.get('deprecation')).toBe('true')
      expect(subjects.headers.get('link')).toBe('</api/subjects>; rel="successor-version"')
      // The current route has another parameter name; the route is the same.
      const user = await t.request('GET', `/api/v1/users/${student.user.id}`, { token: student.token })
      expect(user.status).toBe(200)
      expect(user.headers.get('link')).toBe(`</api/users/${student.user.id}>; rel="successor-version"`)
    })

    it('links nothing where the current family lacks the route, and says deprecated on errors too', async () => {
      const search = await t.request('GET', '/api/v1/search')
      expect(search.headers.get('deprecation')).toBe('true')
      expect(search.headers.get('link')).toBeNull()
      // GET /api/auth/login does not exist (POST does): no successor for GET.
      const login = await t.request('GET', '/api/v1/auth/login')
      expect(login.headers.get('link')).toBeNull()
      const unauthenticated = await t.request('GET', '/api/v1/bookings')
      expect(unauthenticated.status).toBe(401)
      expect(unauthenticated.headers.get('deprecation')).toBe('true')
      expect(unauthenticated.headers.get('link')).toBe('</api/bookings>; rel="successor-version"')
      expect((await t.request('GET', '/api/v1/no-such-route')).headers.get('deprecation')).toBe('true')
    })

    it('leaves the current family alone', async () => {
      const subjects = await t.request('GET', '/api/subjects')
      expect(subjects.headers.get('deprecation')).toBeNull()
      expect(subjects.headers.get('link')).toBeNull()
    })
  })

  describe('GET /api/availabilities', () => {
    it('answers exactly as /api/availabilites', async () => {
      for (const query of ['', '?teach_id=999999&date=2026-12-01&post_code=SW1A%201AA&lesson_type=0']) {
        const misspelt = await t.request('GET', `/api/availabilites${query}`)
        const alias = await t.request('GET', `/api/availabilities${query}`)
        expect(alias.status).toBe(misspelt.status)
        expect(alias.body).toEqual(misspelt.body)
      }
    })

    it('is documented as the alias', async () => {
      const doc = (await t.request<Document>('GET', '/openapi.json')).body
      expect(doc.paths['/api/availabilities']?.get?.description).toMatch(/alias/i)
      expect(doc.paths['/api/availabilities']?.get?.deprecated).toBeUndefined()
    })
  })

  describe('compression', () => {
    const get = (path: string, encoding?: string) => t.app.request(path, { headers: encoding ? { 'accept-encoding': encoding } : {} })

    it('gzips a JSON answer above 1 KiB when the client accepts it', async () => {
      const plain = await get('/openapi.json')
      const plainText = await plain.text()
      expect(plainText.length).toBeGreaterThan(1024)
      expect(plain.headers.get('content-encoding')).toBeNull()
      const zipped = await get('/openapi.json', 'gzip, deflate, br')
      expect(zipped.status).toBe(200)
      expect(zipped.headers.get('content-encoding')).toBe('gzip')
      expect(zipped.headers.get('vary')).toMatch(/accept-encoding/i)
      const bytes = Buffer.from(await zipped.arrayBuffer())
      expect(bytes.length).toBeLessThan(plainText.length / 3)
      expect(gunzipSync(bytes).toString('utf8')).toBe(plainText)
    })

    it('gzips the docs assets', async () => {
      const page = await (await get('/docs')).text()
      const script = [...page.matchAll(/\bsrc="([^"]*\.js)"/g)].map((m) => m[1]!).find((src) => !src.endsWith('init.js'))!
      const asset = await get(script, 'gzip')
      expect(asset.status).toBe(200)
      expect(asset.headers.get('content-encoding')).toBe('gzip')
      expect(gunzipSync(Buffer.from(await asset.arrayBuffer())).length).toBeGreaterThan(100_000)
    })

    it('leaves answers of 1 KiB or less as they are', async () => {
      const health = await get('/healthz', 'gzip')
      expect(health.headers.get('content-encoding')).toBeNull()
      expect(await health.json()).toEqual({ data: { status: 'ok' } })
      const missing = await get('/api/no-such-thing', 'gzip')
      expect(missing.headers.get('content-encoding')).toBeNull()
      expect(missing.status).toBe(404)
    })

    it('keeps the ETag usable: the compressed answer revalidates to a 304', async () => {
      const first = await get('/api/subjects', 'gzip')
      expect(first.headers.get('content-encoding')).toBe('gzip')
      const tag = first.headers.get('etag')!
      expect(tag).toBeTruthy()
      const again = await t.app.request('/api/subjects', { headers: { 'accept-encoding': 'gzip', 'if-none-match': tag } })
      expect(again.status).toBe(304)
    })
  })
})
