import { swaggerUI } from '@hono/swagger-ui'
import type { App } from './routes'

/** GET /openapi.json (OpenAPI 3.1 from the route schemas) and GET /docs (rendered). */
export function documentRoutes(app: App): void {
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
      type: { type: 'string' },
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
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Tutoring Marketplace API',
      version: '1.0.0',
      description: [
        'Both route families, `/api/...` and the legacy `/api/v1/...`, are served together.',
        'Success bodies carry `data` (lists add `meta`); errors are RFC 9457 problem details with a stable `code`.',
        'Lists take `page` (>= 1) and `per_page` (1..100); out-of-range values are a 422.',
        'Bodies: only the routes documented with a multipart body take one (uploads; anonymous callers images up to 10 MiB, the type read from the first bytes). Every other route takes JSON only: another content type is a 400 `malformed_request`, more than 1 MiB a 413, nesting deeper than 64 levels a 400, each before the body is read. An answer given before the body was read carries `Connection: close`. Dates and instants outside 1900..2100 are a 422.',
        'Reference lists (subjects, levels, exam boards, countries, languages, lesson locations, cancellation policies, lesson price) are kept per process for up to 30 s, so an edit shows within that time; service notices are always read fresh.',
      ].join('\n\n'),
    },
  })
  app.get('/docs', swaggerUI({ url: '/openapi.json', title: 'Tutoring Marketplace API' }))
}
