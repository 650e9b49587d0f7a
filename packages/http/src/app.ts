import { OpenAPIHono } from '@hono/zod-openapi'
import type { AppEnv } from './platform/app-env'
import type { Lifecycle } from './platform/lifecycle'
import { answerHeaders } from './platform/answer-headers'
import { identify } from './platform/auth'
import { clientAddress } from './platform/client-address'
import { connectionPolicy } from './platform/connection'
import { corsPolicy } from './platform/cors'
import { entityTags } from './platform/etag'
import { notFoundOrMethodNotAllowed, renderError } from './platform/errors'
import { jsonResponses } from './platform/json-responses'
import { documentRoutes } from './platform/openapi-document'
import { requestIds } from './platform/request-id'
import { requestLog } from './platform/request-log'
import { urlGuard } from './platform/url-guard'
import { generalThrottle } from './platform/throttle'
import { validationHook } from './platform/validation'
import * as accounts from './accounts'
import * as availability from './availability'
import * as catalog from './catalog'
import * as files from './files'
import * as notifications from './notifications'
import * as profiles from './profiles'
import * as registration from './registration'
import * as schedule from './schedule'
import * as search from './search'
import * as teaching from './teaching'
import * as tutors from './tutors'
import * as verification from './verification'
import { healthRoutes } from './platform/health'
import { bookingRoutes } from './routes/bookings'
import { lessonRoutes } from './routes/lessons'
import { paymentRoutes } from './routes/payments'
import { legacyPaymentRoutes } from './routes/legacy-payments'
import { noteRoutes } from './routes/notes'
import { bankAccountRoutes } from './routes/bank-accounts'
import { cardRoutes } from './routes/cards'
import { paymentWebhookRoutes } from './routes/payment-webhooks'
import { subscriptionRoutes } from './routes/subscriptions'
import type { Services } from '@tutoring/adapters'

/**
 * The whole API as one Hono app: platform middleware, then every route group of both
 * families. `lifecycle` is the running server's (see server.ts); tests leave it alone.
 */
export function createApp(services: Services, lifecycle: Lifecycle = { draining: false }): OpenAPIHono<AppEnv> {
  const { config, logger } = services.infra
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })

  app.use(connectionPolicy(lifecycle))
  app.use(answerHeaders)
  app.use(requestIds)
  app.use(jsonResponses)
  app.use(corsPolicy(config.CORS_TRUSTED_ORIGINS, config.CORS_WHITELIST))
  app.use(clientAddress(config.TRUSTED_PROXIES))
  app.use(urlGuard)
  app.use(requestLog(logger))
  app.use(identify(services))
  app.use(generalThrottle(services.throttles.general))
  app.use(entityTags())

  healthRoutes(app, services, lifecycle)
  catalog.routes(app, services)
  search.routes(app, services)
  registration.routes(app, services)
  accounts.routes(app, services)
  verification.routes(app, services)
  notifications.routes(app, services)
  profiles.routes(app, services)
  teaching.routes(app, services)
  schedule.routes(app, services)
  tutors.routes(app, services)
  availability.routes(app, services)
  files.routes(app, services)
  bookingRoutes(app, services)
  lessonRoutes(app, services)
  paymentRoutes(app, services)
  legacyPaymentRoutes(app, services)
  noteRoutes(app, services)
  cardRoutes(app, services)
  bankAccountRoutes(app, services)
  paymentWebhookRoutes(app, services)
  subscriptionRoutes(app, services)
  documentRoutes(app, services.infra.baseUrl)

  app.onError(renderError(logger))
  app.notFound(notFoundOrMethodNotAllowed(app))
  return app
}
