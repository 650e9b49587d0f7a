import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { recordFinding } from '../support/findings'
import { createTestContext, type TestContext } from '../support/harness'
import { upload } from '../support/uploads'

/**
 * Every bound the OpenAPI document promises on a request (maxLength, minLength, maximum,
 * minimum and their exclusive forms, maxItems, enum; of JSON bodies, nested fields and list
 * items included, and of query parameters) is kept: a value just past it is a 422 naming the
 * field, a value at it is not refused for its size. Found by walking the served document, so
 * a bound added to a schema is checked without a test of its own. Each probe changes one field
 * of a base request that passes validation, generated from the schema (its examples, types and
 * bounds) with a small fixture for what needs real records: ids in paths and bodies, a free
 * weekday, a card. Multipart fields (an upload's `purpose`) are not probed here.
 */
type Schema = {
  $ref?: string
  type?: string | string[]
  properties?: Record<string, Schema>
  required?: string[]
  items?: Schema
  anyOf?: Schema[]
  oneOf?: Schema[]
  allOf?: Schema[]
  maxLength?: number
  minLength?: number
  maximum?: number
  minimum?: number
  exclusiveMaximum?: number
  exclusiveMinimum?: number
  maxItems?: number
  minItems?: number
  format?: string
  pattern?: string
  enum?: unknown[]
  example?: unknown
}
type Parameter = { name: string; in: string; required?: boolean; schema?: Schema }
type Operation = { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }
type Document = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } }

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Caller = 'anonymous' | 'student' | 'parent' | 'tutor' | 'internal'

/** One documented bound of one field: a value just past it and values just at it. */
type Bound = { field: string[]; name: string; past: Json; at: Json[] }
/** Where an operation's requests go, and the valid input each probe changes one field of. */
type Base = { caller: Caller; url: string; query: Record<string, string>; body: Json | undefined }
/** What a fixture gives one operation: who calls, real path ids, fields a generated value can't fill. */
type Override = { caller?: Caller; params?: Record<string, string | number>; body?: Record<string, Json>; query?: Record<string, string> }

const resolve = (doc: Document, schema: Schema | undefined): Schema | undefined =>
  schema?.$ref ? resolve(doc, doc.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')]) : schema

const typeOf = (s: Schema): string | undefined => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type)
const isNull = (doc: Document, s: Schema): boolean => typeOf(resolve(doc, s) ?? {}) === undefined && resolve(doc, s)?.type === 'null'

/** The alternatives a field may take, `null` aside, so `string | null` reads as the string. */
function alternatives(doc: Document, schema: Schema | undefined): Schema[] {
  const s = resolve(doc, schema)
  if (!s) return []
  const options = s.anyOf ?? s.oneOf
  if (options) return options.filter((a) => !isNull(doc, a)).flatMap((a) => alternatives(doc, a))
  if (s.allOf?.length === 1) return alternatives(doc, s.allOf[0])
  return [s]
}

const TOMORROW = new Date(Date.now() + 86_400_000)
let emails = 0
/** Every request its own email address, so a registration is never refused as a taken address. */
const freshEmails = (body: Json | undefined): Json | undefined =>
  body === undefined
    ? body
    : (JSON.parse(JSON.stringify(body), (key, value: Json) =>
        key === 'email' && typeof value === 'string' && value.endsWith('@example.com') ? `bounds.${++emails}@example.com` : value,
      ) as Json)

/** A value the field accepts, from its example where it has one, else from its type and bounds. */
function sample(doc: Document, schema: Schema | undefined): Json {
  const s = alternatives(doc, schema)[0]
  if (!s) return null
  if (s.example !== undefined) return s.example as Json
  if (s.enum) return s.enum[0] as Json
  switch (typeOf(s)) {
    case 'string':
      if (s.format === 'date') return TOMORROW.toISOString().slice(0, 10)
      if (s.format === 'date-time') return TOMORROW.toISOString()
      if (s.format === 'uuid') return '00000000-0000-4000-8000-000000000000'
      if (s.format === 'uri') return 'https://example.com/'
      if (s.format === 'email') return 'bounds@example.com'
      return 'x'.repeat(Math.max(1, s.minLength ?? 1))
    case 'integer':
    case 'number':
      return Math.min(s.maximum ?? Infinity, s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1))
    case 'boolean':
      return true
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => sample(doc, s.items))
    case 'object':
      return Object.fromEntries((s.required ?? []).map((name) => [name, sample(doc, s.properties?.[name])]))
    default:
      return null
  }
}

/** `count` values an array of `items` may hold together: distinct options, distinct numbers for ids, else samples. */
const itemsOf = (doc: Document, items: Schema | undefined, count: number): Json[] => {
  const s = alternatives(doc, items)[0]
  const numeric = s && (typeOf(s) === 'integer' || typeOf(s) === 'number')
  return Array.from({ length: count }, (_, i) =>
    s?.enum ? (s.enum[i % s.enum.length] as Json) : numeric ? Math.min(s.maximum ?? Infinity, 1 + i) : sample(doc, items),
  )
}

/**
 * Every documented bound of a schema, with the field path CONTRACT §2 reports it under. A
 * string past its maxLength ends in a space, so a bound checked after trimming is caught too.
 * Fields with a format or pattern are left out of the length bounds: a value of the wrong
 * form would be refused for its form and hide a missing bound.
 */
function boundsOf(doc: Document, schema: Schema | undefined, field: string[]): Bound[] {
  const options = alternatives(doc, schema)
  const enums = options.every((o) => o.enum) && options.length > 0 ? options.flatMap((o) => o.enum as Json[]) : undefined
  if (enums) return [{ field, name: `enum ${enums.join('|')}`, past: typeof enums[0] === 'number' ? 987_654 : 'not_an_option', at: enums }]
  const s = options[0]
  if (!s) return []
  const found: Bound[] = []
  const type = typeOf(s)
  const free = !s.format && !s.pattern
  if (type === 'string' && free && s.maxLength !== undefined) found.push({ field, name: `maxLength ${s.maxLength}`, past: `${'x'.repeat(s.maxLength)} `, at: ['x'.repeat(s.maxLength)] })
  if (type === 'string' && free && s.minLength !== undefined && s.minLength > 0) found.push({ field, name: `minLength ${s.minLength}`, past: 'x'.repeat(s.minLength - 1), at: ['x'.repeat(s.minLength)] })
  if (type === 'integer' || type === 'number') {
    const step = type === 'integer' ? 1 : 0.5
    if (s.maximum !== undefined) found.push({ field, name: `maximum ${s.maximum}`, past: s.maximum + step, at: [s.maximum] })
    if (s.exclusiveMaximum !== undefined) found.push({ field, name: `exclusiveMaximum ${s.exclusiveMaximum}`, past: s.exclusiveMaximum, at: [s.exclusiveMaximum - step] })
    if (s.minimum !== undefined) found.push({ field, name: `minimum ${s.minimum}`, past: s.minimum - step, at: [s.minimum] })
    if (s.exclusiveMinimum !== undefined) found.push({ field, name: `exclusiveMinimum ${s.exclusiveMinimum}`, past: s.exclusiveMinimum, at: [s.exclusiveMinimum + step] })
  }
  if (type === 'array') {
    if (s.maxItems !== undefined) found.push({ field, name: `maxItems ${s.maxItems}`, past: itemsOf(doc, s.items, s.maxItems + 1), at: [itemsOf(doc, s.items, s.maxItems)] })
    found.push(...boundsOf(doc, s.items, [...field, '0']))
  }
  if (type === 'object') for (const [name, property] of Object.entries(s.properties ?? {})) found.push(...boundsOf(doc, property, [...field, name]))
  return found
}

/** `base` with the field at `path` set to `value`; a missing container is first sampled from its schema. */
function withValue(doc: Document, schema: Schema | undefined, base: Json | undefined, path: string[], value: Json): Json {
  if (path.length === 0) return value
  const s = alternatives(doc, schema).find((a) => typeOf(a) === 'object' || typeOf(a) === 'array')
  const [key, ...rest] = path as [string, ...string[]]
  if (s && typeOf(s) === 'array') {
    const list = Array.isArray(base) && base.length > 0 ? [...base] : [sample(doc, s.items)]
    list[0] = withValue(doc, s.items, list[0], rest, value)
    return list
  }
  const object = base && typeof base === 'object' && !Array.isArray(base) ? { ...base } : (sample(doc, s) as Record<string, Json>)
  object[key] = withValue(doc, s?.properties?.[key], object[key], rest, value)
  return object
}

const merge = (base: Json, extra: Record<string, Json> | undefined): Json =>
  extra && base && typeof base === 'object' && !Array.isArray(base) ? { ...base, ...extra } : base

const jsonBodyOf = (operation: Operation): Schema | undefined => operation.requestBody?.content?.['application/json']?.schema

function baseOf(doc: Document, path: string, operation: Operation, override: Override): Base {
  const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (override.params?.[name] !== undefined) return String(override.params[name])
    const schema = alternatives(doc, operation.parameters?.find((p) => p.in === 'path' && p.name === name)?.schema)[0]
    return schema?.format === 'uuid' ? '00000000-0000-4000-8000-000000000000' : schema?.enum ? String(schema.enum[0]) : '1'
  })
  const required = (operation.parameters ?? []).filter((p) => p.in === 'query' && p.required)
  const query = { ...Object.fromEntries(required.map((p) => [p.name, String(sample(doc, p.schema))])), ...override.query }
  const schema = jsonBodyOf(operation)
  return { caller: override.caller ?? 'anonymous', url, query, body: schema ? merge(sample(doc, schema), override.body) : undefined }
}

/** A probe's request, the base with one field changed. */
type Probe = { bound: Bound; query: Record<string, string>; body: Json | undefined }

function probesOf(doc: Document, operation: Operation, base: Base): { past: Probe[]; at: Probe[] } {
  const past: Probe[] = []
  const at: Probe[] = []
  const body = jsonBodyOf(operation)
  for (const bound of boundsOf(doc, body, [])) {
    past.push({ bound, query: base.query, body: withValue(doc, body, base.body, bound.field, bound.past) })
    for (const value of bound.at) at.push({ bound, query: base.query, body: withValue(doc, body, base.body, bound.field, value) })
  }
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in !== 'query') continue
    for (const bound of boundsOf(doc, parameter.schema, [parameter.name])) {
      if (bound.field.length > 1 || typeof bound.past === 'object') continue
      past.push({ bound, query: { ...base.query, [parameter.name]: String(bound.past) }, body: base.body })
      for (const value of bound.at) at.push({ bound, query: { ...base.query, [parameter.name]: String(value) }, body: base.body })
    }
  }
  return { past, at }
}

type Answer = { status: number; code?: string; fields: string[]; errors: Record<string, string[]> }

const FINDING = {
  class: 'Validation: bounds the OpenAPI document promises (JSON bodies and queries)',
  tried: "a value just past and values at every maxLength, minLength, maximum, minimum, maxItems and enum of every operation's JSON body and query, from a valid generated request (text past a length bound ends in a space)",
  held: 'every value past a bound is a 422 naming its field (text bounds hold before trimming); none at a bound is refused for its size or answers 500',
}

describe.each(testDatabaseKinds())('documented bounds on %s', (kind) => {
  let t: TestContext
  let doc: Document
  let tokens: Record<Caller, string | undefined>
  let overrides: Record<string, Override>

  /** The records an operation's base needs, made through the API as a client would. */
  async function fixture(): Promise<Record<string, Override>> {
    const [student, parent, internal] = await Promise.all([t.register('student'), t.register('parent'), t.internalUser()])
    const tutor = await t.bookableTutor()
    tokens = { anonymous: undefined, student: student.token, parent: parent.token, tutor: tutor.token, internal: internal.token }
    const made = async (url: string, token: string, body: unknown) => {
      const res = await t.request<{ data: { id: number | string } }>('POST', url, { token, body })
      if (res.status !== 201) throw new Error(`${url}: ${res.status} ${res.text}`)
      return res.body.data.id
    }
    const subjectId = async (title: string) => (await t.db.selectFrom('subjects').select('id').where('title', '=', title).executeTakeFirstOrThrow()).id
    const levelId = (await t.db.selectFrom('subject_levels').select('id').where('title', '=', 'GCSE').executeTakeFirstOrThrow()).id
    const teachId = Number(await made('/api/v1/teaches', tutor.token, { subject_id: await subjectId('Mathematics'), subject_level_ids: [levelId], hourly_rate: '30.00' }))
    // Open on the booking's weekday only, so a new schedule on another day overlaps nothing.
    const start = new Date(Math.ceil((Date.now() + 2 * 86_400_000) / 3_600_000) * 3_600_000)
    const DAYS = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY']
    const [bookedDay, freeDay] = [DAYS[start.getUTCDay()]!, DAYS[(start.getUTCDay() + 3) % 7]!]
    const dayAvailability = await made('/api/v1/day-availabilities', tutor.token, { day: bookedDay, slots: [{ from: '00:00', to: '24:00' }], lesson_types: ['online'], buffer_minutes: 0 })
    const slot = { start: start.toISOString(), finish: new Date(start.getTime() + 3_600_000).toISOString() }
    const bookingBody = { teach_id: teachId, subject_level_id: levelId, lesson_type: 3, ...slot }
    const booking = await t.request<{ data: { id: number; lesson: { id: number } } }>('POST', '/api/bookings', { token: student.token, body: bookingBody })
    if (booking.status !== 201) throw new Error(`booking: ${booking.status} ${booking.text}`)
    const file = await upload<{ data: { id: string } }>(t, '/api/files', new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x34, 0x0a]), { token: tutor.token, name: 'n.pdf' })
    const profileId = (await t.request<{ data: Array<{ id: number }> }>('GET', '/api/v1/profiles', { token: tutor.token })).body.data[0]!.id
    const detailsId = (await t.request<{ data: Array<{ id: number }> }>('GET', '/api/v1/personal-details', { token: tutor.token })).body.data[0]!.id
    const owned = {
      education: await made('/api/v1/education', tutor.token, { institution: 'Leeds', qualification: 'BSc', start_year: 2010 }),
      profession: await made('/api/v1/professions', tutor.token, { title: 'Teacher', start_date: '2015-09-01' }),
      child: await made('/api/v1/children', parent.token, { firstname: 'Kim', lastname: 'Child' }),
      // A parent's: a tutor's new address replaces the old one, so the POST probes would remove a tutor's.
      address: await made('/api/v1/addresses', parent.token, { line1: '1 High St', city: 'Leeds', postcode: 'LS1 1AA' }),
      location: await made('/api/v1/locations', tutor.token, { postcode: 'SW1A 1AA', lat: 51.501, lng: -0.1416, travel_distance_miles: 5 }),
      note: await made('/api/v1/notes', tutor.token, { lesson_id: booking.body.data.lesson.id, text: 'Fractions', summary: 'Went well' }),
      card: await made('/api/cards', student.token, { payment_method: 'pm_card_visa' }),
      device: await made('/api/v1/user-devices', tutor.token, { platform: 'android', push_token: 'fcm-token' }),
      link: await made('/api/social-links', tutor.token, { platform: 'website', url: 'https://example.com/' }),
      bankAccount: await made('/api/bank-accounts', tutor.token, { account_holder_name: 'T Tutor', sort_code: '12-34-56', account_number: '12345678' }),
    }
    const tutorCalls = (params: Override['params'] = {}): Override => ({ caller: 'tutor', params })
    const booked = { caller: 'student' as const, body: bookingBody }
    return {
      'PUT /api/v1/users/{id}': tutorCalls({ id: tutor.user.id }),
      'PUT /api/users/{user}': tutorCalls({ user: tutor.user.id }),
      'PUT /api/tutors/{id}/verifications/{kind}': { caller: 'internal', params: { id: tutor.user.id, kind: 'dbs' } },
      'PUT /api/v1/personal-details/{id}': tutorCalls({ id: detailsId }),
      'PUT /api/v1/profiles/{id}': tutorCalls({ id: profileId }),
      'POST /api/v1/education': tutorCalls(),
      'PUT /api/v1/education/{id}': tutorCalls({ id: owned.education }),
      'POST /api/v1/professions': tutorCalls(),
      'PUT /api/v1/professions/{id}': tutorCalls({ id: owned.profession }),
      'POST /api/v1/children': { caller: 'parent' },
      'PUT /api/v1/children/{id}': { caller: 'parent', params: { id: owned.child } },
      'POST /api/v1/addresses': tutorCalls(),
      'PUT /api/v1/addresses/{id}': { caller: 'parent', params: { id: owned.address } },
      'PUT /api/v1/locations/{id}': tutorCalls({ id: owned.location }),
      'PUT /api/v1/notes/{id}': tutorCalls({ id: owned.note }),
      'PUT /api/cards/{id}': { caller: 'student', params: { id: owned.card } },
      'POST /api/v1/user-devices': tutorCalls(),
      'PUT /api/v1/user-devices/{id}': tutorCalls({ id: owned.device }),
      'POST /api/social-links': tutorCalls(),
      'PUT /api/social-links/{id}': tutorCalls({ id: owned.link }),
      'POST /api/v1/teaches': { caller: 'tutor', body: { subject_id: await subjectId('English'), subject_level_ids: [levelId] } },
      'PUT /api/v1/teaches/{id}': tutorCalls({ id: teachId }),
      'POST /api/v1/day-availabilities': { caller: 'tutor', body: { day: freeDay, slots: [{ from: '09:00', to: '10:00' }], lesson_types: ['online'] } },
      'PUT /api/v1/day-availabilities/{id}': { caller: 'tutor', params: { id: dayAvailability }, body: { slots: [{ from: '00:00', to: '24:00' }] } },
      'POST /api/v1/holidays': { caller: 'tutor', body: { start_date: '2027-12-24', end_date: '2027-12-26' } },
      'PUT /api/files/{id}': tutorCalls({ id: file.body.data.id }),
      'PUT /api/v1/files/{id}': tutorCalls({ id: file.body.data.id }),
      'POST /api/bookings': booked,
      'POST /api/v1/bookings': booked,
      'POST /api/v1/lessons': booked,
      'PUT /api/bookings/{id}': { caller: 'student', params: { id: booking.body.data.id } },
      'PUT /api/v1/bookings/{id}': { caller: 'student', params: { id: booking.body.data.id } },
      'POST /api/v1/notes': { caller: 'tutor', body: { lesson_id: booking.body.data.lesson.id } },
      'POST /api/tutors/{id}/review': { caller: 'student', params: { id: tutor.user.id } },
      'POST /api/payments/pay': { caller: 'student', body: { booking_id: booking.body.data.id, payment_method: 'pm_card_visa' } },
      'POST /api/v1/payments': { caller: 'student', body: { booking_id: booking.body.data.id, payment_method: 'pm_card_visa' } },
      'GET /api/payments/return': { query: { booking_id: String(booking.body.data.id) } },
      'PUT /api/bank-accounts/{id}': { caller: 'tutor', params: { id: owned.bankAccount }, body: { account_holder_name: 'T Tutor' } },
      'POST /api/bank-accounts': tutorCalls(),
      'POST /api/subscriptions': { caller: 'tutor', body: {} },
      'GET /api/availabilites': { query: { teach_id: String(teachId) } },
      'GET /api/social-links': { query: { user_id: String(tutor.user.id) } },
      'GET /api/addresses/search': { query: { postcode: 'LS1 1AA' } },
      'GET /api/v1/addresses/search-postcode': { query: { postcode: 'LS1 1AA' } },
      'GET /api/v1/availabilities/search': { caller: 'student', query: { teach_id: String(teachId) } },
    }
  }

  beforeAll(async () => {
    t = await createTestContext(kind)
    doc = (await t.request<Document>('GET', '/openapi.json')).body
    overrides = await fixture()
  }, 120_000)
  afterAll(() => t.close())

  const CALLERS: Caller[] = ['anonymous', 'student', 'parent', 'tutor', 'internal']
  const shutOut = (answer: Answer) => answer.code === 'unauthenticated' || answer.status === 403

  /**
   * Every operation with a bound, its base, and what its base answers. The caller is the
   * fixture's, else the first of CALLERS the route lets through.
   */
  async function operations() {
    const found: Array<{ key: string; base: Base; baseAnswer: Answer; past: Probe[]; at: Probe[] }> = []
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const key = `${method.toUpperCase()} ${path}`
        const override = overrides[key] ?? {}
        let base = baseOf(doc, path, operation, override)
        const { past, at } = probesOf(doc, operation, base)
        if (past.length === 0) continue
        let baseAnswer = await request(method, base, base.query, base.body)
        for (const caller of override.caller ? [] : CALLERS.slice(1)) {
          if (!shutOut(baseAnswer)) break
          const next = { ...base, caller }
          const answer = await request(method, next, base.query, base.body)
          if (answer.code !== 'unauthenticated') [base, baseAnswer] = [next, answer]
        }
        found.push({ key, base, baseAnswer, past, at })
      }
    }
    return found
  }

  async function request(method: string, base: Base, query: Record<string, string>, body: Json | undefined): Promise<Answer> {
    const search = new URLSearchParams(query).toString()
    const url = `${base.url}${search ? `?${search}` : ''}`
    const res = await t.request<{ code?: string; errors?: Record<string, string[]> }>(method.toUpperCase(), url, {
      token: tokens[base.caller],
      ...(body === undefined ? {} : { body: freshEmails(body) }),
    })
    return { status: res.status, code: res.body?.code, fields: Object.keys(res.body?.errors ?? {}), errors: res.body?.errors ?? {} }
  }

  let ops: Awaited<ReturnType<typeof operations>>
  beforeAll(async () => {
    ops = await operations()
  }, 120_000)
  /** Operations whose base got past the signature and the session checks: validation comes next. */
  const reached = () => ops.filter((o) => o.baseAnswer.code !== 'invalid_signature' && o.baseAnswer.code !== 'unauthenticated')

  it('finds the bounds to probe, among them the line2 of an address and the description of a profession', ({ task }) => {
    recordFinding(task, FINDING)
    const named = ops.flatMap((o) => o.past.map((p) => `${o.key} ${p.bound.field.join('.')} ${p.bound.name}`))
    expect(named.length).toBeGreaterThan(300)
    expect(named).toContain('POST /api/v1/addresses line2 maxLength 255')
    expect(named).toContain('POST /api/v1/professions description maxLength 1000')
    // Only the webhook receivers (processor and identity provider) stop a probe at their signature check.
    expect(ops.filter((o) => o.baseAnswer.code === 'invalid_signature').map((o) => o.key).sort()).toEqual([
      'POST /api/subscriptions/webhooks',
      'POST /api/v1/payments/webhooks/accounts',
      'POST /api/v1/verification/status',
    ])
  })

  /**
   * Operations whose base no generated value can make valid: the reset token must be one that
   * was emailed, and is checked as such (`is invalid or has expired`) whatever its length.
   */
  const BASES_REFUSED_FOR_MEANING = ['POST /api/auth/reset: 422 token']

  it('starts each probe from input that passes validation, so a refusal is the probed field\'s own', ({ task }) => {
    recordFinding(task, FINDING)
    const refused = reached().filter((o) => o.baseAnswer.code === 'validation_failed' || o.baseAnswer.status >= 500)
    expect(refused.map((o) => `${o.key}: ${o.baseAnswer.status} ${o.baseAnswer.fields.join(',')}`)).toEqual(BASES_REFUSED_FOR_MEANING)
    // A policy that refuses after validation leaves the probes meaningful; none refuses every caller but this one.
    expect(ops.filter((o) => shutOut(o.baseAnswer)).map((o) => `${o.key}: ${o.baseAnswer.status}`)).toEqual(['POST /api/tutors/{id}/review: 403'])
  })

  /**
   * A value at the bound may still be refused for what it means (an id nobody has, a plan that
   * does not exist, an end before the start), never for its size: a message of the past-bound
   * probe's, or one about size or range, names a bound tighter than the document's.
   */
  const SIZE = /too (big|small)|at (most|least)|[<>]=|characters|items|invalid option/i

  it('refuses a value just past each bound with a 422 naming that field, and takes one at the bound', async ({ task }) => {
    const finding = recordFinding(task, FINDING)
    const past: string[] = []
    let requests = 0
    const at: string[] = []
    for (const o of reached()) {
      const method = o.key.split(' ')[0]!
      for (const probe of o.past) {
        const field = probe.bound.field.join('.')
        const what = `${o.key} ${field} (${probe.bound.name})`
        const answer = await request(method, o.base, probe.query, probe.body)
        requests++
        if (answer.status !== 422 || !answer.fields.includes(field)) past.push(`${what}: ${answer.status} ${answer.fields.join(',')}`)
        const boundMessages = new Set(answer.errors[field] ?? [])
        for (const value of o.at.filter((a) => a.bound === probe.bound)) {
          const reply = await request(method, o.base, value.query, value.body)
          requests++
          const sized = (reply.errors[field] ?? []).filter((m) => boundMessages.has(m) || SIZE.test(m))
          if (reply.status >= 500 || sized.length > 0) at.push(`${what} at the bound: ${reply.status} ${sized.join('; ')}`)
        }
      }
    }
    expect(past).toEqual([])
    expect(at).toEqual([])
    finding.figures = { requests, 'bounds probed': reached().reduce((n, o) => n + o.past.length, 0), operations: reached().length }
  }, 600_000)
})
