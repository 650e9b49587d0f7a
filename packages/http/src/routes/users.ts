import { z } from '@hono/zod-openapi'
import { claimUsername, getPublicUser, getUser, isEmailRegistered, roleName, updateUser, type PublicUser, type User } from '@tutoring/domain'
import { authApi, currentUser, signedUrl } from '../platform/auth'
import { jsonBody } from '../platform/json-body'
import { problems } from '../platform/problem'
import { unwrap } from '../platform/respond'
import { bearer, commonProblems, jsonContent, mount, problemContent, type App, type RouteSpec } from '../platform/routes'
import { authThrottle } from '../platform/throttle'
import type { Services } from '@tutoring/adapters'
import { abbreviateLastname, countryCode, personName } from '../platform/fields'
import { mediaUrls, type MediaUrls } from '../platform/media-urls'
import { UserSchema, emailField, presentUser } from './accounts.schemas'
import { PublicTutorProfileSchema, presentPublicTutorProfile } from './tutors.schemas'

const tags = ['Users']
const idParam = z.object({ id: z.coerce.number().int().positive() })

const PublicUserSchema = z
  .object({
    id: z.number().int(),
    username: z.string(),
    firstname: z.string(),
    lastname: z.string().openapi({ description: 'Abbreviated to the initial and a full stop' }),
    role_id: z.number().int(),
    role: z.string(),
    joined_at: z.string(),
  })
  .openapi('PublicUser')

const presentPublicUser = (user: User): z.infer<typeof PublicUserSchema> => ({
  id: user.id,
  username: user.username,
  firstname: user.firstname,
  lastname: abbreviateLastname(user.lastname),
  role_id: user.roleId,
  role: roleName(user.roleId)!,
  joined_at: user.createdAt.toISOString(),
})

const PublicTutorUserSchema = PublicTutorProfileSchema.extend({ role_id: z.number().int(), role: z.string() }).openapi('PublicTutorUser')

const presentAnyPublicUser = (found: PublicUser, urls: MediaUrls): z.infer<typeof PublicUserSchema> | z.infer<typeof PublicTutorUserSchema> =>
  found.kind === 'tutor'
    ? { ...presentPublicTutorProfile(found.profile, urls), role_id: found.profile.tutor.roleId, role: roleName(found.profile.tutor.roleId)! }
    : presentPublicUser(found.user)

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
  const urls = mediaUrls(services.infra.baseUrl)

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

  // GET takes a username where PUT takes an id; one path template needs one parameter name.
  mount(
    app,
    ['/api/users/{user}'],
    {
      method: 'get',
      tags,
      summary: 'Public user by username',
      description:
        'Public. A tutor answers the public tutor profile of GET /api/tutors/{id}/profile plus role_id and role; a student or parent answers name, role and joined_at. Staff, deleted users and tutors who hide their profile are 404, as an unknown username.',
      request: { params: z.object({ user: z.string().min(1).max(64).openapi({ param: { name: 'user', in: 'path' }, description: 'The username.' }) }) },
      responses: { 200: jsonContent(z.object({ data: z.union([PublicTutorUserSchema, PublicUserSchema]) }), 'User'), 404: commonProblems[404] },
    },
    async (c) =>
      c.json({ data: presentAnyPublicUser(await unwrap(getPublicUser({ accounts: deps, tutors: services.tutors }, c.req.valid('param').user)), urls) }, 200),
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
