import { z } from '@hono/zod-openapi'
import { addCard, deleteCard, listCards, setDefaultCard, validateCard } from '@tutoring/domain/payments'
import { authApi, currentUser } from '../platform/auth'
import { jsonBody } from '../platform/json-body'
import { listOf, paginate, paginationQuery } from '../platform/pagination'
import { unwrap } from '../platform/respond'
import { bearer, commonProblems, jsonContent, mount, problemContent, processorProblems, type App } from '../platform/routes'
import { authThrottle } from '../platform/throttle'
import type { Services } from '@tutoring/adapters'
import { CardBody, CardSchema, CardUpdateBody, CardValidationSchema, idParam, presentCard, presentCardValidation } from './payments.schemas'

const tags = ['Cards']
const OWNERSHIP = "Cards are their owner's alone: another user's card, internal staff included, or a deleted one is 404."

export function cardRoutes(app: App, services: Services): void {
  const deps = services.payments

  mount(
    app,
    ['/api/cards'],
    {
      method: 'get',
      tags,
      summary: "The caller's saved cards",
      description: 'Live (not deleted) cards, the default first, then newest first. Every role may keep cards. Paginated like every list (CONTRACT §17).',
      security: bearer,
      middleware: [authApi] as const,
      request: { query: z.strictObject(paginationQuery) },
      responses: { 200: jsonContent(listOf(CardSchema), 'Cards'), 401: commonProblems[401], 422: commonProblems[422], 429: commonProblems[429] },
    },
    async (c) => {
      const cards = await unwrap(listCards(deps, currentUser(c)))
      return c.json(paginate(cards.map(presentCard), c.req.valid('query')), 200)
    },
  )

  mount(
    app,
    ['/api/cards'],
    {
      method: 'post',
      tags,
      summary: 'Save a card and make it the default',
      description: [
        'Body `{payment_method}`: a processor payment method id made by the client with the processor\'s card form.',
        "The processor checks it and attaches it to the caller's customer (created first when the caller has none) as the",
        'default for payments and invoices; then it is saved here as the default card (201). A declined, expired or unknown',
        'payment method: 422 `validation_failed` with `errors.payment_method`. Saving the same payment method again answers',
        'the same card, made default again.',
      ].join(' '),
      security: bearer,
      middleware: [authApi, jsonBody] as const,
      request: { body: { content: { 'application/json': { schema: CardBody } }, required: true } },
      responses: { ...processorProblems, 201: jsonContent(z.object({ data: CardSchema }), 'Saved'), 400: problemContent('malformed_request'), ...commonProblems },
    },
    async (c) => {
      const card = await unwrap(addCard(deps, currentUser(c), { paymentMethod: c.req.valid('json').payment_method }))
      return c.json({ data: presentCard(card) }, 201)
    },
  )

  mount(
    app,
    ['/api/cards/validate'],
    {
      method: 'post',
      tags,
      summary: 'Check a card with the processor without saving it (public)',
      description: [
        'Body `{payment_method}`. Answers `{data: {valid: true, brand, last4, exp_month, exp_year}}`; a payment method the',
        'processor does not know or that is not a card: 422 `validation_failed` with `errors.payment_method`. Nothing is',
        'stored or attached. Public, so it carries the stricter limit of login and the other public validate route',
        '(`AUTH_THROTTLE_PER_MINUTE` per client address) besides the general one.',
      ].join(' '),
      middleware: [authThrottle(services.throttles.auth, async () => undefined), jsonBody] as const,
      request: { body: { content: { 'application/json': { schema: CardBody } }, required: true } },
      responses: {
        ...processorProblems,
        200: jsonContent(z.object({ data: CardValidationSchema }), 'A card that could be saved'),
        400: problemContent('malformed_request'),
        422: commonProblems[422],
        429: commonProblems[429],
      },
    },
    async (c) => {
      const card = await unwrap(validateCard(deps, { paymentMethod: c.req.valid('json').payment_method }))
      return c.json({ data: presentCardValidation(card) }, 200)
    },
  )

  mount(
    app,
    ['/api/cards/{id}'],
    {
      method: 'put',
      tags,
      summary: 'Make a card the default',
      description: `Body \`{is_default: true}\`, the one change a saved card takes (its number and expiry are the processor's). The card becomes the default here at once and at the processor shortly after (outbox). ${OWNERSHIP}`,
      security: bearer,
      middleware: [authApi, jsonBody] as const,
      request: { params: idParam, body: { content: { 'application/json': { schema: CardUpdateBody } }, required: true } },
      responses: { ...processorProblems, 200: jsonContent(z.object({ data: CardSchema }), 'Updated'), 400: problemContent('malformed_request'), ...commonProblems },
    },
    async (c) => {
      const card = await unwrap(setDefaultCard(deps, currentUser(c), c.req.valid('param').id))
      return c.json({ data: presentCard(card) }, 200)
    },
  )

  mount(
    app,
    ['/api/cards/{id}'],
    {
      method: 'delete',
      tags,
      summary: 'Remove a card (soft delete)',
      description: `204. The card is kept, marked deleted, and detached at the processor (outbox). When it was the default, the most recently added remaining card becomes the default; with none left there is no default. ${OWNERSHIP}`,
      security: bearer,
      middleware: [authApi] as const,
      request: { params: idParam },
      responses: { ...processorProblems, 204: { description: 'Removed' }, ...commonProblems },
    },
    async (c) => {
      await unwrap(deleteCard(deps, currentUser(c), c.req.valid('param').id))
      return c.body(null, 204)
    },
  )
}
