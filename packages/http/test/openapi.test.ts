import { createConfig, lintFromString } from '@redocly/openapi-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestContext, type TestContext } from './support/harness'

type Operation = { operationId?: string; security?: Array<Record<string, string[]>>; deprecated?: boolean; tags?: string[] }
type Document = {
  servers?: Array<{ url: string }>
  tags?: Array<{ name: string; description?: string }>
  paths: Record<string, Record<string, Operation>>
}

/** Rules that do not fit a route, each with its reason. */
const EXPECTED = [
  // The probes answer 200 or 503 and never a client error (they are not even throttled).
  'warn operation-4xx-response at #/paths/~1healthz/get/responses',
  'warn operation-4xx-response at #/paths/~1readyz/get/responses',
  // A resource link answers 302 to the signed file address; it has no 2xx of its own.
  'warn operation-2xx-response at #/paths/~1api~1resources~1profile-image~1{id}/get/responses',
  'warn operation-2xx-response at #/paths/~1api~1resources~1profile-video~1{id}/get/responses',
  'warn operation-2xx-response at #/paths/~1api~1resources~1dbs-image~1{id}/get/responses',
  'warn operation-2xx-response at #/paths/~1api~1resources~1qualification-image~1{id}/get/responses',
]

const operationsOf = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ path, method, operation })))

/** The document is the same on every database kind; one is enough. */
describe('the OpenAPI document', () => {
  let t: TestContext
  let doc: Document
  let text: string
  beforeAll(async () => {
    t = await createTestContext('pglite')
    const res = await t.request<Document>('GET', '/openapi.json')
    expect(res.status).toBe(200)
    doc = res.body
    text = res.text
  })
  afterAll(() => t.close())

  it('gives a nullable reference as oneOf [$ref, null], not an intersection with null', () => {
    expect(text).toContain('"oneOf":[{"$ref":"#/components/schemas/Location"},{"type":"null"}]')
    expect(text).not.toMatch(/"allOf":\[\{"\$ref":"[^"]+"\},\{"type":\["object","null"\]\}\]/)
  })

  it("passes Redocly's recommended rules with no error and no warning", async () => {
    // A private service: there is no licence to name.
    const config = await createConfig({ extends: ['recommended'], rules: { 'info-license': 'off' } })
    const problems = await lintFromString({ source: text, absoluteRef: 'openapi.json', config })
    const lines = problems
      .map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? ''}: ${p.message}`)
      .filter((line) => !EXPECTED.some((allowed) => line.startsWith(allowed)))
    expect(lines).toEqual([])
  })

  it('names every operation with an operationId of its own', () => {
    const ids = operationsOf(doc).map(({ operation }) => operation.operationId)
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]*$/.test(id))).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
    expect(doc.paths['/api/v1/users/{id}']?.get?.operationId).toBe('getV1UsersById')
  })

  it('marks public operations security: [] and the bearer ones with the bearer scheme', () => {
    for (const { path, method, operation } of operationsOf(doc)) {
      expect(Array.isArray(operation.security), `${method} ${path}`).toBe(true)
    }
    expect(doc.paths['/api/auth/login']?.post?.security).toEqual([])
    expect(doc.paths['/healthz']?.get?.security).toEqual([])
    expect(doc.paths['/api/v1/users/{id}']?.get?.security).toEqual([{ bearer: [] }])
  })

  it('declares every tag it uses, with a description, and the server it is served from', () => {
    const declared = new Map((doc.tags ?? []).map((tag) => [tag.name, tag.description]))
    for (const { operation } of operationsOf(doc)) {
      for (const tag of operation.tags ?? []) expect(declared.get(tag), tag).toBeTruthy()
    }
    expect(doc.servers).toEqual([{ url: 'http://api.test', description: 'This deployment (APP_URL)' }])
  })

  it('marks the legacy /api/v1 family deprecated, and no current operation', () => {
    for (const { path, method, operation } of operationsOf(doc)) {
      expect(operation.deprecated === true, `${method} ${path}`).toBe(path.startsWith('/api/v1/'))
    }
  })

  it('is built once per process', async () => {
    const build = vi.spyOn(t.app, 'getOpenAPI31Document')
    const again = await t.request('GET', '/openapi.json')
    expect(again.text).toBe(text)
    expect(build).not.toHaveBeenCalled()
  })
})

describe('the /docs page', () => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestContext('pglite')
  })
  afterAll(() => t.close())

  it('loads everything from this service, so it renders with no network', async () => {
    const page = await t.request('GET', '/docs')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    const references = [...page.text.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]!)
    expect(references.length).toBeGreaterThanOrEqual(3)
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
    for (const reference of references) {
      expect(reference, reference).toMatch(/^\/[^/]/)
      const asset = await t.request('GET', reference)
      expect(asset.status, reference).toBe(200)
      expect(asset.text.length, reference).toBeGreaterThan(0)
    }
    const init = await t.request('GET', '/docs/assets/init.js')
    expect(init.text).toContain("url: '/openapi.json'")
    // Swagger UI would otherwise post the document to its online validator.
    expect(init.text).toContain('validatorUrl: null')
  })

  it('tells the browser to fetch nothing from another origin', async () => {
    const policy = (await t.request('GET', '/docs')).headers.get('content-security-policy') ?? ''
    expect(policy).toContain("default-src 'none'")
    expect(policy).toContain("script-src 'self'")
    expect(policy).not.toMatch(/https?:|\*/)
  })

  it('serves only the Swagger UI files it names', async () => {
    expect((await t.request('GET', '/docs/assets/package.json')).status).toBe(404)
    expect((await t.request('GET', '/docs/assets/..%2F..%2Fpackage.json')).status).toBe(404)
  })
})
