import { createConfig, lintFromString } from '@redocly/openapi-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { PROBLEM_CODES, PROBLEM_TYPES, problemTypeUri } from '../src/platform/problem-types'
import { createTestContext, type TestContext } from './support/harness'

type Schema = {
  $ref?: string
  type?: string | string[]
  enum?: unknown[]
  format?: string
  items?: Schema
  anyOf?: Schema[]
  oneOf?: Schema[]
  properties?: Record<string, Schema>
}
type Parameter = { name: string; in: string; schema: Schema }
type Operation = {
  operationId?: string
  security?: Array<Record<string, string[]>>
  deprecated?: boolean
  tags?: string[]
  parameters?: Parameter[]
  requestBody?: { content: Record<string, { schema: Schema }> }
  responses: Record<string, { $ref?: string }>
}
type Document = {
  servers?: Array<{ url: string }>
  tags?: Array<{ name: string; description?: string }>
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, Schema>; responses?: Record<string, unknown> }
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

  /** A schema with its references followed, as a generator reads it (`#/components/schemas/A/properties/b` too). */
  const resolve = (schema: Schema): Schema => {
    if (schema.$ref === undefined) return schema
    const found = schema.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc)
    expect(found, schema.$ref).toBeDefined()
    return resolve(found as Schema)
  }
  const queryOf = (path: string, method: string) =>
    new Map((doc.paths[path]?.[method]?.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, resolve(p.schema)]))
  const isTextOrTexts = (schema: Schema) => JSON.stringify(schema.anyOf?.map((s) => s.type)) === '["string","array"]'

  it("types search's query parameters as SearchRequest reads them (integers, arrays, enums), never as text or texts", () => {
    for (const method of ['get', 'post']) {
      const query = queryOf('/api/v1/search', method)
      expect(query.get('page')?.type, method).toBe('integer')
      expect(query.get('per_page')).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 })
      expect(query.get('subject_id')?.type).toBe('integer')
      expect(query.get('duration')?.type).toBe('integer')
      expect(query.get('lat')?.type).toBe('number')
      expect(query.get('subject_level_ids[]')).toMatchObject({ type: 'array', items: { type: 'integer' } })
      expect(query.get('exam_boards[]')).toMatchObject({ type: 'array', items: { type: 'integer' } })
      expect(query.get('sort')?.enum).toEqual(['distance', 'rating', 'price_asc', 'price_desc'])
      expect(query.get('filters[lesson_type]')?.enum).toEqual(['online', 'tutors_home', 'students_home'])
      expect(query.get('filters[gender]')?.enum).toEqual(['male', 'female'])
      expect(query.get('filters[language]')?.type).toBe('integer')
    }
    for (const { path, method, operation } of operationsOf(doc)) {
      for (const parameter of operation.parameters ?? []) expect(isTextOrTexts(resolve(parameter.schema)), `${method} ${path} ${parameter.name}`).toBe(false)
    }
  })

  it('names each lesson type spelling once, and references it wherever a lesson type appears', () => {
    expect(doc.components.schemas.LessonType).toMatchObject({ type: 'integer', enum: [1, 2, 3] })
    expect(doc.components.schemas.LessonTypeName).toMatchObject({ type: 'string', enum: ['online', 'tutors_home', 'students_home'] })
    // SPEC: bookings and lessons carry the number (availability takes it), search filters and schedules the name.
    expect(doc.components.schemas.BookingRequest?.properties?.lesson_type).toEqual({ $ref: '#/components/schemas/LessonType' })
    expect(doc.components.schemas.Lesson?.properties?.lesson_type).toEqual({ $ref: '#/components/schemas/LessonType' })
    expect(doc.components.schemas.Lesson?.properties?.lesson_type_name).toEqual({ $ref: '#/components/schemas/LessonTypeName' })
    expect(doc.components.schemas.DayAvailability?.properties?.lesson_types?.items).toEqual({ $ref: '#/components/schemas/LessonTypeName' })
    expect(queryOf('/api/availabilites', 'get').get('lesson_type')?.enum).toEqual([1, 2, 3])
    // Nowhere else an enum of the same values, spelled again.
    const sameValues = (a: unknown[], b: unknown[]) => a.length === b.length && a.every((value) => b.includes(value))
    const copies: string[] = []
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${at}/${i}`))
      if (typeof node !== 'object' || node === null) return
      const { enum: values } = node as Schema
      if (Array.isArray(values) && !/^\/components\/schemas\/LessonType(Name)?$/.test(at)) {
        if (sameValues(values, [1, 2, 3]) || sameValues(values, ['online', 'tutors_home', 'students_home'])) copies.push(at)
      }
      for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`)
    }
    walk(doc, '')
    expect(copies).toEqual([])
  })

  it("gives a lesson's address its schema, and SPEC's states as named enums of SPEC's values", () => {
    const { schemas } = doc.components
    expect(schemas.Lesson?.properties?.address).toEqual({ oneOf: [{ $ref: '#/components/schemas/LessonAddress' }, { type: 'null' }] })
    expect(Object.keys(schemas.LessonAddress?.properties ?? {})).toEqual(['line1', 'line2', 'city', 'postcode', 'country', 'lat', 'lng'])
    expect(schemas.LessonAddress?.type).toBe('object')
    expect(schemas.LessonState).toMatchObject({ type: 'integer', enum: [0, 1, 2] })
    expect(schemas.LessonStateName?.enum).toEqual(['CANCELLED', 'ACTIVE', 'RESCHEDULE'])
    expect(schemas.BookingState).toMatchObject({ type: 'integer', enum: [0, 1, 3, 4, 5] })
    expect(schemas.BookingStateName?.enum).toEqual(['REFUNDED', 'PAYED', 'AWAITING_PAYMENT', 'PARTIAL_REFUNDED', 'REQUIRES_CAPTURE'])
    expect(schemas.Booking?.properties?.state).toEqual({ $ref: '#/components/schemas/BookingState' })
    expect(schemas.Booking?.properties?.state_name).toEqual({ $ref: '#/components/schemas/BookingStateName' })
    expect(schemas.PaymentStatus?.properties?.status).toEqual({ $ref: '#/components/schemas/PaymentIntentStatus' })
    expect(schemas.SubscriptionStatus?.enum).toEqual(['trialing', 'active', 'canceled', 'incomplete', 'incomplete_expired'])
    expect(schemas.Subscription?.properties?.status).toEqual({ $ref: '#/components/schemas/SubscriptionStatus' })
    expect(schemas.VerificationStatus?.enum).toEqual(['PENDING', 'PASS', 'FAIL', 'INTERNAL_REVIEW'])
    expect(schemas.TutorStatus?.properties?.reasons?.items).toEqual({ $ref: '#/components/schemas/EligibilityReason' })
    expect(schemas.EligibilityReason?.enum).toContain('subscription_inactive')
  })

  it('documents every multipart file part as binary', () => {
    const parts = operationsOf(doc).flatMap(({ path, method, operation }) => {
      const multipart = operation.requestBody?.content['multipart/form-data']
      return multipart ? [{ at: `${method} ${path}`, file: resolve(multipart.schema).properties?.file }] : []
    })
    expect(parts.length).toBeGreaterThanOrEqual(6)
    for (const { at, file } of parts) expect(file, at).toMatchObject({ type: 'string', format: 'binary' })
  })

  it('documents the 500 on every operation, as one shared problem response', () => {
    expect(doc.components.responses?.InternalError).toMatchObject({ content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } })
    for (const { path, method, operation } of operationsOf(doc)) {
      expect(operation.responses['500'], `${method} ${path}`).toEqual({ $ref: '#/components/responses/InternalError' })
    }
  })

  it('serves a page for every problem type the API answers with, and a 404 for one it does not', async () => {
    expect(PROBLEM_CODES.length).toBeGreaterThanOrEqual(25)
    for (const code of PROBLEM_CODES) {
      const page = await t.request('GET', problemTypeUri(code))
      expect(page.status, code).toBe(200)
      expect(page.headers.get('content-type'), code).toMatch(/^text\/html/)
      expect(page.text, code).toContain(`<h1>${PROBLEM_TYPES[code].title}</h1>`)
      expect(page.text, code).toContain(`<code>"code": "${code}"</code>`)
    }
    // The type of a problem as it is answered resolves too.
    const unauthenticated = await t.request<{ type: string }>('GET', '/api/bookings')
    expect(unauthenticated.body.type).toBe('/problems/unauthenticated')
    expect((await t.request('GET', unauthenticated.body.type)).status).toBe(200)
    expect((await t.request('GET', '/problems/no-such-problem')).status).toBe(404)
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
