import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  MAX_WEBHOOK_ENDPOINTS,
  retryWebhookDelivery,
  rotateWebhookSecret,
  sendTestWebhook,
  updateWebhookEndpoint,
} from '@tutoring/domain/integrations'
import type { Services } from '@tutoring/adapters'
import { authApi, currentUser } from '../platform/auth'
import { jsonBody } from '../platform/json-body'
import { listOf, meta, one } from '../platform/pagination'
import { unwrap } from '../platform/respond'
import { bearer, commonProblems, jsonContent, mount, type App } from '../platform/routes'
import {
  DeliverySchema,
  deliveryParam,
  EndpointBody,
  EndpointSchema,
  EndpointUpdateBody,
  endpointParam,
  listQuery,
  presentDelivery,
  presentEndpoint,
  toEndpointChange,
  toEndpointInput,
} from './integrations.schemas'

const tags = ['Integrations']
const OWN = "An endpoint is its owner's alone: anyone else's (staff included) is 404."
const URL_RULE =
  '`url` must be https and may not reach a private, loopback or link-local address (422 on `url`), the calendar feed\'s guard; the address is checked again before every delivery, and a redirect (307 or 308 only) is followed only to a public https address. `WEBHOOKS_ALLOW_INSECURE=true` lifts both rules for the registered URL (development).'

export function webhookEndpointRoutes(app: App, services: Services): void {
  const deps = services.integrations

  mount(
    app,
    ['/api/webhook-endpoints'],
    {
      method: 'post',
      tags,
      summary: 'Register a webhook endpoint',
      description: [
        `Any signed-in user. Body \`{url, events, description?}\`. ${URL_RULE} At most ${MAX_WEBHOOK_ENDPOINTS} endpoints per user (422 on \`url\`).`,
        'The answer carries the signing `secret`, shown this once (and by rotate-secret); keep it. Deliveries follow the Standard Webhooks specification: see this document\'s `webhooks` for each event\'s payload and headers.',
      ].join('\n\n'),
      security: bearer,
      middleware: [authApi, jsonBody] as const,
      request: { body: { content: { 'application/json': { schema: EndpointBody } }, required: true } },
      responses: { 201: jsonContent(one(EndpointSchema), 'Registered, with its secret'), ...commonProblems },
    },
    async (c) => {
      const endpoint = await unwrap(createWebhookEndpoint(deps, currentUser(c), toEndpointInput(c.req.valid('json'))))
      return c.json({ data: presentEndpoint(endpoint, true) }, 201)
    },
  )

  mount(
    app,
    ['/api/webhook-endpoints'],
    {
      method: 'get',
      tags,
      summary: 'Your webhook endpoints',
      description: 'The caller\'s endpoints, oldest first, `secret` null.',
      security: bearer,
      middleware: [authApi] as const,
      request: { query: listQuery },
      responses: { 200: jsonContent(listOf(EndpointSchema), 'Endpoints'), ...commonProblems },
    },
    async (c) => {
      const { page, per_page } = c.req.valid('query')
      const found = await unwrap(listWebhookEndpoints(deps, currentUser(c), { page, perPage: per_page }))
      return c.json({ data: found.items.map((e) => presentEndpoint(e)), meta: meta(found.total, { page, per_page }) }, 200)
    },
  )

  mount(
    app,
    ['/api/webhook-endpoints/{id}'],
    {
      method: 'get',
      tags,
      summary: 'A webhook endpoint',
      description: `${OWN} \`secret\` is null.`,
      security: bearer,
      middleware: [authApi] as const,
      request: { params: endpointParam },
      responses: { 200: jsonContent(one(EndpointSchema), 'The endpoint'), ...commonProblems },
    },
    async (c) => {
      const endpoint = await unwrap(getWebhookEndpoint(deps, currentUser(c), c.req.valid('param').id))
      return c.json({ data: presentEndpoint(endpoint) }, 200)
    },
  )

  mount(
    app,
    ['/api/webhook-endpoints/{id}'],
    {
      method: 'put',
      tags,
      summary: 'Change a webhook endpoint',
      description: `${OWN} Any of \`{url, events, description, enabled}\`; what is left out stays. ${URL_RULE} \`enabled: false\` pauses deliveries (they wait, and their retry window keeps running); \`enabled: true\` resumes them and starts the endpoint's count of failing days afresh (an endpoint failing for 5 days is disabled and its owner emailed).`,
      security: bearer,
      middleware: [authApi, jsonBody] as const,
      request: { params: endpointParam, body: { content: { 'application/json': { schema: EndpointUpdateBody } }, required: true } },
      responses: { 200: jsonContent(one(EndpointSchema), 'Changed'), ...commonProblems },
    },
    async (c) => {
      const endpoint = await unwrap(updateWebhookEndpoint(deps, currentUser(c), { id: c.req.valid('param').id, change: toEndpointChange(c.req.valid('json')) }))
      return c.json({ data: presentEndpoint(endpoint) }, 200)
    },
  )

  mount(
    app,
    ['/api/webhook-endpoints/{id}'],
    {
      method: 'delete',
      tags,
      summary: 'Remove a webhook endpoint',
      description: `${OWN} The endpoint and its delivery log go; nothing more is sent to it.`,
      security: bearer,
      middleware: [authApi] as const,
      request: { params: endpointParam },
      responses: { 204: { description: 'Removed' }, ...commonProblems },
    },
    async (c) => {
      await unwrap(deleteWebhookEndpoint(deps, currentUser(c), c.req.valid('param').id))
      return c.body(null, 204)
    },
  )

  mount(
    app,
    ['/api/webhook-endpoints/{id}/rotate-secret'],
    {
      method: 'post',
      tags,
      summary: "Replace an endpoint's secret",
      description: `${OWN} Answers the endpoint with its new \`secret\`, shown this once. Every attempt from now on, retries of earlier events included, is signed with it.`,
      security: bearer,
      middleware: [authApi] as const,
      request: { params: endpointParam },
      responses: { 200: jsonContent(one(EndpointSchema), 'The endpoint with its new secret'), ...commonProblems },
    },
    async (c) => {
      const endpoint = await unwrap(rotateWebhookSecret(deps, currentUser(c), c.req.valid('param').id))
      return c.json({ data: presentEndpoint(endpoint, true) }, 200)
    },
  )

  mount(
    app,
    ['/api/webhook-endpoints/{id}/test'],
    {
      method: 'post',
      tags,
      summary: 'Send a test event',
      description: `${OWN} Queues a \`webhook.test\` event for this endpoint alone, whatever it subscribes to; it goes out like any other (signed, retried). 202 with its delivery.`,
      security: bearer,
      middleware: [authApi] as const,
      request: { params: endpointParam },
      responses: { 202: jsonContent(one(DeliverySchema), 'Queued'), ...commonProblems },
    },
    async (c) => {
      const delivery = await unwrap(sendTestWebhook(deps, currentUser(c), c.req.valid('param').id))
      return c.json({ data: presentDelivery(delivery) }, 202)
    },
  )

  mount(
    app,
    ['/api/webhook-endpoints/{id}/deliveries'],
    {
      method: 'get',
      tags,
      summary: "An endpoint's delivery log",
      description: `${OWN} One delivery per event sent to the endpoint, newest first. A delivery is retried with backoff (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then every 12 h) until 3 days after the event, then \`failed\`.`,
      security: bearer,
      middleware: [authApi] as const,
      request: { params: endpointParam, query: listQuery },
      responses: { 200: jsonContent(listOf(DeliverySchema), 'Deliveries'), ...commonProblems },
    },
    async (c) => {
      const { page, per_page } = c.req.valid('query')
      const found = await unwrap(listWebhookDeliveries(deps, currentUser(c), { endpointId: c.req.valid('param').id, page: { page, perPage: per_page } }))
      return c.json({ data: found.items.map(presentDelivery), meta: meta(found.total, { page, per_page }) }, 200)
    },
  )

  mount(
    app,
    ['/api/webhook-endpoints/{id}/deliveries/{delivery_id}/retry'],
    {
      method: 'post',
      tags,
      summary: 'Retry a delivery now',
      description: `${OWN} The delivery is due at once (\`pending\`), whatever its status: a failed one gets another attempt, a succeeded one is sent again. The same \`webhook-id\` and body. 202 with the delivery.`,
      security: bearer,
      middleware: [authApi] as const,
      request: { params: deliveryParam },
      responses: { 202: jsonContent(one(DeliverySchema), 'Queued'), ...commonProblems },
    },
    async (c) => {
      const { id, delivery_id } = c.req.valid('param')
      const delivery = await unwrap(retryWebhookDelivery(deps, currentUser(c), { endpointId: id, deliveryId: delivery_id }))
      return c.json({ data: presentDelivery(delivery) }, 202)
    },
  )
}
