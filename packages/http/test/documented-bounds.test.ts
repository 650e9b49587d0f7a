import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, type TestContext } from './support/harness'

type Schema = {
  $ref?: string
  type?: string | string[]
  properties?: Record<string, Schema>
  items?: Schema
  anyOf?: Schema[]
  oneOf?: Schema[]
  allOf?: Schema[]
  maxLength?: number
  maximum?: number
  exclusiveMaximum?: number
  maxItems?: number
  format?: string
  pattern?: string
  enum?: unknown[]
}
type Parameter = { name: string; in: string; schema?: Schema }
type Operation = { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }
type Document = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } }

/** One value just past one documented bound: where it goes and what to send. */
type Probe = { method: string; path: string; url: string; field: string; bound: string; body?: unknown; query?: string }

const resolve = (doc: Document, schema: Schema | undefined): Schema | undefined =>
  schema?.$ref ? resolve(doc, doc.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')]) : schema

/** The first alternative that is not `null`, so `string | null` reads as the string. */
const concrete = (doc: Document, schema: Schema | undefined): Schema | undefined => {
  const s = resolve(doc, schema)
  const alternatives = s?.anyOf ?? s?.oneOf
  if (alternatives) return concrete(doc, alternatives.find((a) => resolve(doc, a)?.type !== 'null'))
  if (s?.allOf?.length === 1) return concrete(doc, s.allOf[0])
  return s
}

const typeOf = (s: Schema): string | undefined => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type)

const sampleItem = (s: Schema | undefined): unknown => (s && typeOf(s) === 'string' ? 'a' : s && typeOf(s) === 'object' ? {} : 1)

/** Values past each bound of a schema, with the field path CONTRACT §2 reports them under. */
function pastBounds(doc: Document, schema: Schema | undefined, path: string[]): Array<{ path: string[]; bound: string; value: unknown }> {
  const s = concrete(doc, schema)
  if (!s) return []
  const found: Array<{ path: string[]; bound: string; value: unknown }> = []
  const type = typeOf(s)
  // A value past a length bound must still have the field's form, or a format error would hide
  // a missing bound; such fields are left out.
  if (type === 'string' && s.maxLength !== undefined && !s.format && !s.pattern && !s.enum) {
    found.push({ path, bound: `maxLength ${s.maxLength}`, value: 'x'.repeat(s.maxLength + 1) })
  }
  if ((type === 'integer' || type === 'number') && s.maximum !== undefined) {
    found.push({ path, bound: `maximum ${s.maximum}`, value: type === 'integer' ? s.maximum + 1 : s.maximum + 0.5 })
  }
  if ((type === 'integer' || type === 'number') && s.exclusiveMaximum !== undefined) {
    found.push({ path, bound: `exclusiveMaximum ${s.exclusiveMaximum}`, value: s.exclusiveMaximum })
  }
  if (type === 'array' && s.maxItems !== undefined) {
    found.push({ path, bound: `maxItems ${s.maxItems}`, value: Array.from({ length: s.maxItems + 1 }, () => sampleItem(concrete(doc, s.items))) })
  }
  if (type === 'array') {
    // An item past its own bound, as the first of a list: reported under `field.0...`.
    for (const inner of pastBounds(doc, s.items, [])) found.push({ path: [...path, '0', ...inner.path], bound: inner.bound, value: inner.value })
  }
  if (type === 'object') {
    for (const [name, property] of Object.entries(s.properties ?? {})) found.push(...pastBounds(doc, property, [...path, name]))
  }
  return found
}

const nest = (path: string[], value: unknown): unknown =>
  path.reduceRight<unknown>((inner, key) => (/^\d+$/.test(key) ? [inner] : { [key]: inner }), value)

/** A well-formed value for each path parameter, so the request reaches the body's validation. */
const urlOf = (doc: Document, path: string, operation: Operation): string =>
  path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const schema = concrete(doc, operation.parameters?.find((p) => p.in === 'path' && p.name === name)?.schema)
    return schema?.format === 'uuid' ? '00000000-0000-4000-8000-000000000000' : '1'
  })

function probesOf(doc: Document): Probe[] {
  const probes: Probe[] = []
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const where = { method: method.toUpperCase(), path, url: urlOf(doc, path, operation) }
      const body = operation.requestBody?.content?.['application/json']?.schema
      for (const past of pastBounds(doc, body, [])) {
        probes.push({ ...where, field: past.path.join('.'), bound: past.bound, body: nest(past.path, past.value) })
      }
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'query') continue
        for (const past of pastBounds(doc, parameter.schema, [parameter.name])) {
          if (typeof past.value === 'object') continue
          // A route that takes a JSON body refuses a request without one before reading the query.
          probes.push({ ...where, field: parameter.name, bound: past.bound, query: `${parameter.name}=${encodeURIComponent(String(past.value))}`, ...(body ? { body: {} } : {}) })
        }
      }
    }
  }
  return probes
}

/**
 * Every maxLength, maximum and maxItems the document promises on a request is kept: a value
 * one past it is a 422 naming the field, whoever sends it. Found by walking the document, so
 * a bound added to a schema is checked without a test of its own.
 */
describe('documented bounds', () => {
  let t: TestContext
  let probes: Probe[]
  let tokens: Array<string | undefined>

  beforeAll(async () => {
    t = await createTestContext('pglite')
    const doc = (await t.request<Document>('GET', '/openapi.json')).body
    probes = probesOf(doc)
    const [student, parent, tutor, internal] = await Promise.all([t.register('student'), t.register('parent'), t.register('tutor'), t.internalUser()])
    tokens = [undefined, student.token, parent.token, tutor.token, internal.token]
  }, 60_000)
  afterAll(() => t.close())

  it('finds bounds to probe, among them the line2 of an address', () => {
    expect(probes.length).toBeGreaterThan(100)
    expect(probes).toContainEqual(expect.objectContaining({ method: 'POST', path: '/api/v1/addresses', field: 'line2', bound: 'maxLength 255' }))
  })

  it('refuses a value one past each of them with a 422 on that field', async () => {
    const failures: string[] = []
    const unsigned: Probe[] = []
    for (const probe of probes) {
      const url = `${probe.url}${probe.query ? `?${probe.query}` : ''}`
      let answer: { status: number; code?: string; fields: string[] } | undefined
      // The first caller the route lets through reaches validation.
      for (const token of tokens) {
        const res = await t.request<{ code?: string; errors?: Record<string, string[]> }>(probe.method, url, { token, ...(probe.body === undefined ? {} : { body: probe.body }) })
        answer = { status: res.status, code: res.body?.code, fields: Object.keys(res.body?.errors ?? {}) }
        if (res.status !== 401 && res.status !== 403) break
      }
      if (answer?.code === 'invalid_signature') unsigned.push(probe)
      else if (answer?.status !== 422 || !answer.fields.includes(probe.field)) {
        failures.push(`${probe.method} ${probe.path} ${probe.field} (${probe.bound}): ${answer?.status} ${answer?.fields.join(',')}`)
      }
    }
    expect(failures).toEqual([])
    // Only the webhook receivers (processor and identity provider) stop a probe at their signature check.
    expect([...new Set(unsigned.map((p) => p.path))].sort()).toEqual(['/api/subscriptions/webhooks', '/api/v1/payments/webhooks/accounts', '/api/v1/verification/status'])
  }, 300_000)
})
