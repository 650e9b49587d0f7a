import { z } from '@hono/zod-openapi'
import { claimUsername, getUser, isEmailRegistered, updateUser, type User } from '@tutoring/domain/accounts'
import { authApi, currentUser, signedUrl } from '../platform/auth'
import { jsonBody } from '../platform/json-body'
import { problems } from '../platform/problem'
import { unwrap } from '../platform/respond'
import { bearer, commonProblems, jsonContent, mount, problemContent, type App, type RouteSpec } from '../platform/routes'
import { authThrottle } from '../platform/throttle'
import type { Services } from '@tutoring/adapters'
import { countryCode, personName } from '../platform/fields'
import { UserSchema, emailField, presentUser } from './accounts.schemas'

const tags = ['Users']
const idParam = z.object({ id: z.coerce.number().int().positive() })

const UserUpdateBody = z
  .strictObject({
    firstname: personName.optional(),
    lastname: personName.optional(),
    username: z.string().trim().toLowerCase().optional(),
    country: countryCode.optional(),
  })
  .openapi('UserUpdateRequest')

export function userRoutes(app: App, services: Services): void {
  const deps = services.accounts

  mount(
    app,
    ['/api/users/{email}/validate'],
    {
      method: 'get',
      tags,
      summary: 'Whether an email is already registered',
      middleware: [authThrottle(services.throttles.auth, async (c) => c.req.param('email'))] as const,
      request: { params: z.object({ email: z.string() }) },
      responses: {
        200: jsonContent(z.object({ data: z.object({ email: z.string(), registered: z.boolean() }) }), 'Answer'),
        422: commonProblems[422],
        429: commonProblems[429],
      },
    },
    async (c) => {
      const parsed = emailField.safeParse(c.req.valid('param').email)
      if (!parsed.success) throw problems.validation({ email: ['must be a valid email address'] })
      const registered = await unwrap(isEmailRegistered(deps, parsed.data))
      return c.json({ data: { email: parsed.data, registered } }, 200)
    },
  )

  mount(
    app,
    ['/api/users/username/claim/{id}'],
    {
      method: 'get',
      tags,
      summary: 'Claim the username offered in a signed link',
      request: { params: idParam, query: z.object({ username: z.string(), expires: z.string(), signature: z.string() }) },
      middleware: [signedUrl(services)] as const,
      responses: { 200: jsonContent(z.object({ data: UserSchema }), 'Claimed'), 403: problemContent('invalid_signature'), 404: commonProblems[404], 422: commonProblems[422] },
    },
    async (c) => {
      const user = await unwrap(claimUsername(deps, { userId: c.req.valid('param').id, username: c.req.valid('query').username }))
      return c.json({ data: presentUser(user) }, 200)
    },
  )

  mount(
    app,
    ['/api/v1/users/{id}'],
    {
      method: 'get',
      tags,
      summary: 'A user account (the user themselves or internal staff)',
      security: bearer,
      middleware: [authApi] as const,
      request: { params: idParam },
      responses: { 200: jsonContent(z.object({ data: UserSchema }), 'User'), ...commonProblems },
    },
    async (c) => c.json({ data: presentUser(await unwrap(getUser(deps, currentUser(c), c.req.valid('param').id))) }, 200),
  )

  const update = {
    method: 'put' as const,
    tags,
    summary: 'Update a user account (the user themselves or internal staff)',
    description: 'Departure from SPEC.md: the current family requires auth:api too (CONTRACT.md).',
    security: bearer,
    middleware: [authApi, jsonBody] as const,
    request: { params: idParam, body: { content: { 'application/json': { schema: UserUpdateBody } }, required: true } },
    responses: { 200: jsonContent(z.object({ data: UserSchema }), 'Updated'), ...commonProblems },
  } satisfies RouteSpec
  const updated = async (actor: User, id: number, body: z.output<typeof UserUpdateBody>) => {
    const patch = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined))
    return { data: presentUser(await unwrap(updateUser(deps, actor, { id, patch }))) }
  }
  mount(app, ['/api/v1/users/{id}'], update, async (c) => c.json(await updated(currentUser(c), c.req.valid('param').id, c.req.valid('json')), 200))
  mount(
    app,
    ['/api/users/{user}'],
    { ...update, request: { ...update.request, params: z.object({ user: idParam.shape.id.openapi({ param: { name: 'user', in: 'path' }, description: 'The user id.' }) }) } },
    async (c) => c.json(await updated(currentUser(c), c.req.valid('param').user, c.req.valid('json')), 200),
  )
}
