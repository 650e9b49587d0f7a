import { httpInstrumentationMiddleware } from '@hono/otel'
import { OpenAPIHono } from '@hono/zod-openapi'
import type { AppEnv } from './platform/app-env'
import type { Lifecycle } from './platform/lifecycle'
import { answerHeaders } from './platform/answer-headers'
import { identify } from './platform/auth'
import { clientAddress } from './platform/client-address'
import { compression } from './platform/compression'
import { connectionPolicy } from './platform/connection'
import { corsPolicy } from './platform/cors'
import { entityTags } from './platform/etag'
import { notFoundOrMethodNotAllowed, renderError } from './platform/errors'
import { jsonResponses } from './platform/json-responses'
import { legacyFamily } from './platform/legacy-family'
import { metricsOf, metricsRoutes, requestMetrics } from './platform/metrics'
import { documentRoutes } from './platform/openapi-document'
import { requestIds } from './platform/request-id'
import { requestLog } from './platform/request-log'
import { readRoutingMiddleware, routeKey } from './platform/read-routing'
import { urlGuard } from './platform/url-guard'
import { generalThrottle } from './platform/throttle'
import { validationHook } from './platform/validation'
import * as accounts from './accounts'
import * as availability from './availability'
import * as booking from './booking'
import * as bookingPayments from './booking-payments'
import * as bookingSeries from './booking-series'
import * as catalog from './catalog'
import * as files from './files'
import * as integrations from './integrations'
import * as notes from './notes'
import * as notifications from './notifications'
import * as payments from './payments'
import * as profiles from './profiles'
import * as registration from './registration'
import * as reviews from './reviews'
import * as schedule from './schedule'
import * as search from './search'
import * as subscriptions from './subscriptions'
import * as teaching from './teaching'
import * as tutors from './tutors'
import * as verification from './verification'
import { healthRoutes } from './platform/health'
import type { Routes } from './platform/routes'
import { recordingSpans, type Services } from '@tutoring/adapters'

/**
 * Every context's routes, from its room's index.ts (packages/http/src/<context>/). The order
 * is the order of the OpenAPI document; where two paths could match one request, the first
 * mounted answers.
 */
const ROOMS: ReadonlyArray<{ routes: Routes; replicaReads?: readonly string[] }> = [
  catalog,
  search,
  registration,
  accounts,
  verification,
  notifications,
  profiles,
  teaching,
  schedule,
  tutors,
  availability,
  files,
  booking,
  notes,
  bookingSeries,
  reviews,
  bookingPayments,
  payments,
  subscriptions,
  integrations,
]

/**
 * The whole API as one Hono app: platform middleware, the probes, every room's routes (both
 * families), the document. `lifecycle` is the running server's (see server.ts); tests leave it alone.
 */
export function createApp(services: Services, lifecycle: Lifecycle = { draining: false }): OpenAPIHono<AppEnv> {
  const { config, logger } = services.infra
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })

  app.use(connectionPolicy(lifecycle))
  // Server spans only where tracing is on (see platform/tracing.ts): otherwise nothing per request.
  if (recordingSpans()) app.use(httpInstrumentationMiddleware({ captureActiveRequests: false }))
  app.use(requestMetrics(metricsOf(services)))
  app.use(compression)
  app.use(answerHeaders)
  app.use(requestIds)
  // Only on the legacy family's paths: elsewhere it would be one more layer doing nothing.
  app.use('/api/v1/*', legacyFamily(app))
  app.use(jsonResponses)
  app.use(corsPolicy(config.CORS_TRUSTED_ORIGINS, config.CORS_WHITELIST))
  app.use(clientAddress(config.TRUSTED_PROXIES))
  app.use(urlGuard)
  app.use(requestLog(logger))
  app.use(identify(services))
  app.use(generalThrottle(services.throttles.general))
  app.use(entityTags())

  // Filled as the rooms mount: which of their routes read from the replica (DATABASE_READ_URL).
  const replicaRoutes = new Set<string>()
  if (services.infra.readRouting) app.use(readRoutingMiddleware(services.infra.readRouting, replicaRoutes))

  healthRoutes(app, services, lifecycle)
  metricsRoutes(app, services)
  for (const room of ROOMS) {
    const before = app.routes.length
    room.routes(app, services)
    for (const route of app.routes.slice(before)) {
      if (room.replicaReads?.includes(route.method)) replicaRoutes.add(routeKey(route.method, route.path))
    }
  }
  documentRoutes(app, services.infra.baseUrl)

  app.onError(renderError(logger))
  app.notFound(notFoundOrMethodNotAllowed(app))
  return app
}
