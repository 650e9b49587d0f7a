import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { LOCAL_STORAGE_ROUTE, type Services } from '@tutoring/adapters'
import { resourceLink, setProfileMedia, type ProfileMediaSlot, type ResourceKind } from '@tutoring/domain/files'
import type { AppEnv } from '../platform/app-env'
import { authApi, currentUser } from '../platform/auth'
import { receiveUploadFor } from '../platform/multipart'
import { PACKAGE_DIR } from '../platform/package-dir'
import { one } from '../platform/pagination'
import { problems } from '../platform/problem'
import { unwrap } from '../platform/respond'
import { validQuery } from '../platform/validation'
import { bearer, commonProblems, jsonContent, mount, problemContent, type App } from '../platform/routes'
import { NoFields, ProfileSchema, multipartBody, presentMediaProfile } from './files.schemas'

const userIdParam = z.object({ id: z.coerce.number().int().positive() })

export function mediaRoutes(app: App, services: Services): void {
  profileMediaRoutes(app, services)
  resourceRoutes(app, services)
  localStorageRoute(app, services)
  mobileAssetRoute(app)
}

const PROFILE_MEDIA: Record<ProfileMediaSlot, { path: string; what: string; types: string }> = {
  picture: { path: '/api/v1/users/{id}/profile/image', what: 'profile picture', types: 'JPEG, PNG or WebP, up to 10 MiB' },
  video: { path: '/api/v1/users/{id}/profile/video', what: 'profile video', types: 'MP4, WebM or QuickTime, up to 200 MiB' },
}

function profileMediaRoutes(app: App, services: Services) {
  const deps = services.files
  for (const slot of ['picture', 'video'] as const) {
    const { path: route, what, types } = PROFILE_MEDIA[slot]
    mount(
      app,
      [route],
      {
        method: 'post',
        tags: ['Users'],
        summary: `Set the user's ${what}; answers the profile`,
        description: `Multipart, the file in the part \`file\` (${types}, read from the content; 415 otherwise). The user themselves or internal staff; another user is a 403, an unknown user a 404. The ${what} it replaces is deleted.`,
        security: bearer,
        middleware: [authApi] as const,
        request: { params: userIdParam, body: multipartBody(`The ${what}`) },
        responses: {
          200: jsonContent(one(ProfileSchema), 'The profile'),
          400: problemContent('malformed_request: not multipart/form-data'),
          413: problemContent('payload_too_large'),
          415: problemContent('unsupported_media_type'),
          ...commonProblems,
        },
      },
      async (c) => {
        const upload = await receiveUploadFor(c, services, { fields: NoFields, accept: [slot === 'picture' ? 'image' : 'video'] })
        try {
          const profile = await unwrap(
            setProfileMedia(deps, currentUser(c), {
              userId: c.req.valid('param').id,
              slot,
              upload: { name: upload.file.name || 'upload', size: upload.file.size, content: upload.file.content() },
            }),
          )
          return c.json({ data: presentMediaProfile(profile, services.infra.baseUrl) }, 200)
        } finally {
          await upload.discard()
        }
      },
    )
  }
}

const RESOURCE_ROUTES: Record<ResourceKind, { auth: boolean; summary: string }> = {
  'profile-image': { auth: false, summary: "Redirect to a user's profile picture (link valid 5 minutes)" },
  'profile-video': { auth: false, summary: "Redirect to a user's profile video (link valid 5 days)" },
  'dbs-image': { auth: true, summary: "Redirect to a tutor's DBS certificate (owner or internal; link valid 5 minutes)" },
  'qualification-image': { auth: true, summary: "Redirect to a tutor's qualification document (owner or internal; link valid 5 minutes)" },
}

function resourceRoutes(app: App, services: Services) {
  for (const kind of Object.keys(RESOURCE_ROUTES) as ResourceKind[]) {
    const { auth, summary } = RESOURCE_ROUTES[kind]
    mount(
      app,
      [`/api/resources/${kind}/{id}`],
      {
        method: 'get',
        tags: ['Resources'],
        summary,
        description: [
          '`{id}` is the user id. Answers 302 with `Location` set to a signed link: a presigned object URL with S3-compatible storage, the service\'s own `/storage/...` route with the local disk default.',
          auth
            ? 'Only the user and internal staff; anyone else is told there is nothing (404), as is a user without the document.'
            : 'Public. A user without one, or a deleted user, is a 404.',
        ].join(' '),
        ...(auth ? { security: bearer, middleware: [authApi] as const } : {}),
        request: { params: userIdParam },
        responses: {
          302: { description: 'Redirect to the signed link', headers: { Location: { schema: { type: 'string' }, description: 'The signed link' } } },
          ...(auth ? { 401: commonProblems[401] } : {}),
          404: commonProblems[404],
        },
      },
      async (c) => {
        const link = await unwrap(resourceLink(services.files, c.get('user'), { kind, userId: c.req.valid('param').id }))
        // The link expires, so neither this answer nor its target may be cached past it.
        c.header('cache-control', 'no-store')
        return c.redirect(link.url, 302)
      },
    )
  }
}

const pathAndQuery = (url: string): string => {
  const u = new URL(url)
  return `${u.pathname}${u.search}`
}

const storageQuery = z.strictObject({ expires: z.string().openapi({ description: 'Unix seconds' }), signature: z.string().openapi({ description: 'Hex HMAC-SHA256' }) })

/** The local disk default's signed links (CONTRACT §7): `GET /storage/{key}?expires=..&signature=..`. */
function localStorageRoute(app: App, services: Services) {
  const { urlSigner } = services.infra
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: `${LOCAL_STORAGE_ROUTE}/{key}`,
    tags: ['Resources'],
    summary: 'A stored object behind a signed link (local disk storage)',
    description:
      'The target of `/api/resources/...` redirects when no S3 storage is configured. `{key}` may hold slashes. Served inline with its stored content type and `X-Content-Type-Options: nosniff`. A wrong or expired signature is a 403 `invalid_signature`.',
    request: {
      params: z.object({ key: z.string() }),
      query: storageQuery,
    },
    responses: {
      200: { description: 'The object', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
      403: problemContent('invalid_signature'),
      404: commonProblems[404],
    },
  })
  app.get(`${LOCAL_STORAGE_ROUTE}/*`, async (c) => {
    if (!urlSigner.verify(pathAndQuery(c.req.url))) throw problems.invalidSignature(403, 'This link is invalid or has expired.')
    validQuery(storageQuery, c)
    const key = c.req.path.slice(LOCAL_STORAGE_ROUTE.length + 1)
    const object = await services.infra.localDisk?.open(key)
    if (!object) throw problems.notFound()
    const headers = {
      'content-type': object.contentType,
      'content-length': String(object.size),
      'content-disposition': 'inline',
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, max-age=300',
      // Keys are never reused, so the key names the bytes; no need to hash a whole video.
      etag: `"${createHash('sha256').update(key).digest('hex').slice(0, 32)}"`,
    }
    if (c.req.method === 'HEAD') {
      object.body.destroy()
      return new Response(null, { status: 200, headers })
    }
    return new Response(Readable.toWeb(object.body) as ReadableStream, { status: 200, headers })
  })
}

const MOBILE_ROOT = path.join(PACKAGE_DIR, 'assets', 'mobile') + path.sep
const MOBILE_ROUTE = '/api/resources/mobile'
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/
const ASSET_TYPES: Record<string, string> = {
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
}

const noQuery = z.strictObject({})

/** Static files the mobile apps fetch, packaged with the service in `packages/http/assets/mobile`. */
function mobileAssetRoute(app: App) {
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: `${MOBILE_ROUTE}/{path}`,
    tags: ['Resources'],
    summary: 'Static mobile app assets (e.g. `app-config.json`, `icon.png`)',
    description: 'Public. `{path}` may hold slashes; an unknown asset is a 404.',
    request: { params: z.object({ path: z.string() }), query: noQuery },
    responses: {
      200: { description: 'The asset', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
      404: commonProblems[404],
    },
  })
  app.get(`${MOBILE_ROUTE}/*`, async (c: Context<AppEnv>) => {
    validQuery(noQuery, c)
    const file = await mobileAsset(c.req.path.slice(MOBILE_ROUTE.length + 1))
    if (!file) throw problems.notFound('No such asset.')
    const type = ASSET_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream'
    return c.body(new Uint8Array(await readFile(file)), 200, { 'content-type': type, 'cache-control': 'public, max-age=300' })
  })
}

/** The asset's path, only for plain segments inside the folder (no `..`, no hidden files). */
async function mobileAsset(relative: string): Promise<string | undefined> {
  const segments = relative.split('/')
  if (!segments.every((segment) => SEGMENT.test(segment))) return undefined
  const file = path.join(MOBILE_ROOT, ...segments)
  if (!file.startsWith(MOBILE_ROOT)) return undefined
  try {
    return (await stat(file)).isFile() ? file : undefined
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG') return undefined
    throw error
  }
}
