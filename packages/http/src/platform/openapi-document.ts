import { docsRoutes } from './docs-page'
import { problemPages } from './problem-pages'
import type { App } from './routes'

type OpenAPIObject = ReturnType<App['getOpenAPI31Document']>
type OperationObject = { operationId?: string; security?: unknown[]; deprecated?: boolean; responses?: Record<string, unknown> }

/** The probes are the only routes outside the throttle (CONTRACT §13). */
const UNTHROTTLED = new Set(['/healthz', '/readyz'])
const TOO_MANY_REQUESTS = {
  description: 'Too many requests (the throttle of CONTRACT §9); with `Retry-After`',
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
}
/** Any operation can meet the unexpected (the one `onError`): one shared response, referenced by each. */
const INTERNAL_ERROR = { $ref: '#/components/responses/InternalError' }

/** Every tag an operation uses, described; the linter refuses an undeclared one. */
const TAGS: ReadonlyArray<{ name: string; description: string }> = [
  { name: 'Operations', description: 'Liveness and readiness probes for load balancers.' },
  { name: 'Accounts', description: 'Registration, login, password reset, email verification and sessions.' },
  { name: 'Users', description: 'User records and the public lookups by email and username.' },
  { name: 'Profile', description: "The caller's personal records: details, education, professions, children, addresses, mobile numbers, devices." },
  { name: 'Social links', description: "Links to a tutor's profiles elsewhere." },
  { name: 'Reference data', description: 'Subjects, levels, exam boards, countries, languages, lesson locations, policies and prices.' },
  { name: 'Search', description: 'Public tutor search.' },
  { name: 'Tutors', description: 'Public tutor profiles, tutor status, and tutors\' notes.' },
  { name: 'Teaches', description: "What a tutor teaches, at which levels and for how much." },
  { name: 'Schedule', description: "A tutor's weekly availability." },
  { name: 'Holidays', description: 'Dates a tutor is away.' },
  { name: 'Locations', description: 'Where a tutor teaches in person, and how far they travel.' },
  { name: 'Availability', description: 'Bookable slots and connected calendar feeds.' },
  { name: 'Bookings', description: 'Booking lessons, holding slots, cancelling and rescheduling.' },
  { name: 'Lessons', description: 'Lessons, reschedule proposals and ratings.' },
  { name: 'Notes', description: 'Notes on lessons.' },
  { name: 'Payments', description: 'Paying for bookings through the payment processor.' },
  { name: 'Coupons', description: 'Discount codes.' },
  { name: 'Cards', description: 'Saved payment cards.' },
  { name: 'Bank accounts', description: "Tutors' payout accounts." },
  { name: 'Subscriptions', description: "Tutors' subscriptions." },
  { name: 'Verification', description: 'Identity, DBS and qualification checks.' },
  { name: 'Files', description: 'Uploads.' },
  { name: 'Resources', description: 'Signed links to stored files and the mobile apps\' static assets.' },
  { name: 'Webhooks', description: 'Events from the payment processor, the identity provider and push services.' },
  { name: 'Integrations', description: "Outbound webhooks (Standard Webhooks): integrators' endpoints, their secrets and delivery logs; each event's payload is in this document's `webhooks`." },
]

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)

/**
 * A stable, unique name from the method and path, so every operation of both families has
 * one without 170 hand-kept names: `GET /api/v1/users/{id}` is `getV1UsersById`.
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '/')
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const param = /^\{(.+)\}$/.exec(segment)
      return param ? ['by', ...param[1]!.split(/[-_.]/)] : segment.split(/[-_.]/)
    })
  return method + words.map(capitalise).join('')
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

/** `{ type: [object, null] }` or `{ type: null }` and nothing else: the null half zod-openapi puts beside a reference. */
const isNullOnly = (value: unknown): boolean =>
  isRecord(value) && Object.keys(value).length === 1 && (value.type === 'null' || (Array.isArray(value.type) && value.type.includes('null')))

/**
 * zod-openapi writes a nullable reference as `allOf: [$ref, { type: [object, null] }]`, which
 * generators read as an intersection (`Location & (Record<string, never> | null)`), and a union
 * with null as `anyOf: [$ref, { type: null }]`; `oneOf: [$ref, { type: null }]` says what both
 * mean, once: the referenced object, or null. In place.
 */
function nullableReferences(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(nullableReferences)
  if (!isRecord(node)) return
  for (const value of Object.values(node)) nullableReferences(value)
  for (const key of ['allOf', 'anyOf'] as const) {
    const parts = node[key]
    if (Array.isArray(parts) && parts.length === 2 && isRecord(parts[0]) && typeof parts[0].$ref === 'string' && isNullOnly(parts[1])) {
      delete node[key]
      node.oneOf = [parts[0], { type: 'null' }]
    }
  }
}

/**
 * What every operation needs for client generators, applied in one place to the document the
 * route definitions produce: an operationId, `security: []` where no credential is asked for,
 * the throttle's 429 wherever the throttle applies, the shared 500, `deprecated` on the legacy `/api/v1`
 * family, and nullable references as `oneOf` (nullableReferences).
 */
function finish(document: OpenAPIObject): OpenAPIObject {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method] as OperationObject | undefined
      if (!operation) continue
      operation.operationId ??= operationIdOf(method, path)
      operation.security ??= []
      if (!UNTHROTTLED.has(path) && operation.responses && !operation.responses['429']) operation.responses['429'] = TOO_MANY_REQUESTS
      if (operation.responses && !operation.responses['500']) operation.responses['500'] = INTERNAL_ERROR
      if (path.startsWith('/api/v1/')) operation.deprecated = true
    }
  }
  nullableReferences(document)
  return document
}

/** GET /openapi.json (OpenAPI 3.1 from the route schemas, built once) and GET /docs (rendered). */
export function documentRoutes(app: App, baseUrl: string): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'An opaque token from login or registration: `Authorization: Bearer <token>`.',
  })
  app.openAPIRegistry.registerComponent('schemas', 'Problem', {
    type: 'object',
    description: 'RFC 9457 problem details (application/problem+json).',
    required: ['type', 'title', 'status', 'code'],
    properties: {
      type: {
        type: 'string',
        format: 'uri-reference',
        description: 'The problem type: a page on this service (`/problems/slot-unavailable`) that describes it; GET it for a person to read.',
        example: '/problems/slot-unavailable',
      },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      code: { type: 'string', description: 'Stable snake_case code clients switch on.' },
      errors: {
        type: 'object',
        additionalProperties: { type: 'array', items: { type: 'string' } },
        description: 'Validation only: field path to messages.',
      },
    },
  })
  app.openAPIRegistry.registerComponent('responses', 'InternalError', {
    description: '`internal_error`: something unexpected went wrong; logged with the request id (`X-Request-Id`), and the body carries no `detail`.',
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  })
  let document: string | undefined
  // Every route is registered by the time the first request arrives; building then, once,
  // keeps the cost out of start-up and off every later request.
  app.get('/openapi.json', (c) => {
    document ??= JSON.stringify(
      finish(
        app.getOpenAPI31Document({
          openapi: '3.1.0',
          info: {
            title: 'Tutoring Marketplace API',
            version: '1.0.0',
            description: [
              'Both route families, `/api/...` and the legacy `/api/v1/...`, are served together. Every operation of the legacy family is marked deprecated: it stays for the clients that use it, and new clients use the current family wherever it has the operation.',
              'Success bodies carry `data` (lists add `meta`); errors are RFC 9457 problem details with a stable `code`.',
              'Lists take `page` (>= 1) and `per_page` (1..100); out-of-range values are a 422.',
              'Bodies: only the routes documented with a multipart body take one (uploads; anonymous callers images up to 10 MiB, the type read from the first bytes). Every other route takes JSON only: another content type is a 400 `malformed_request`, more than 1 MiB a 413, nesting deeper than 64 levels a 400, each before the body is read. An answer given before the body was read carries `Connection: close`. Dates and instants outside 1900..2100 are a 422.',
              'Operations with `security: []` take no bearer token; some of them check a signed link, a webhook signature or a token header instead, as their descriptions say.',
              'Reference lists (subjects, levels, exam boards, countries, languages, lesson locations, cancellation policies, lesson price) are kept per process for up to 30 s, so an edit shows within that time; service notices are always read fresh.',
            ].join('\n\n'),
          },
          servers: [{ url: baseUrl, description: 'This deployment (APP_URL)' }],
          tags: [...TAGS],
        }),
      ),
    )
    return c.body(document, 200, { 'content-type': 'application/json; charset=utf-8' })
  })
  docsRoutes(app)
  problemPages(app)
}
