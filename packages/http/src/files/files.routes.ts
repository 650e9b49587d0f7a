import { z } from '@hono/zod-openapi'
import { createMiddleware } from 'hono/factory'
import { deleteFile, FILE_PURPOSES, getFile, listFiles, renameFile, storeUpload } from '@tutoring/domain/files'
import type { AppEnv } from '../platform/app-env'
import { authApi, currentUser } from '../platform/auth'
import { jsonBody } from '../platform/json-body'
import { receiveUploadFor } from '../platform/multipart'
import { listOf, meta, one, paginationQuery } from '../platform/pagination'
import { problems } from '../platform/problem'
import { unwrap } from '../platform/respond'
import { bearer, bearerChallenge, commonProblems, jsonContent, mount, problemContent, type App } from '../platform/routes'
import type { Services } from '@tutoring/adapters'
import { FileSchema, RenameBody, UploadFields, fileIdParam, multipartBody, presentFile } from './files.schemas'

const tags = ['Files']
const paths = ['/api/files', '/api/v1/files'] as const
const itemPaths = ['/api/files/{id}', '/api/v1/files/{id}'] as const

/**
 * "mixed" auth (SPEC.md): no token is fine here, but a token that does not work is a 401,
 * so a client whose session ended is told so instead of uploading anonymously.
 */
const optionalAuth = createMiddleware<AppEnv>(async function optionalAuth(c, next) {
  if (c.req.header('authorization') !== undefined && !c.get('user')) throw problems.unauthenticated()
  await next()
})

const UPLOAD_DESCRIPTION = [
  'Stores an upload (multipart/form-data, the file in the part `file`, an optional `purpose` part).',
  'The type is read from the content: images JPEG, PNG, WebP and PDF documents up to 10 MiB; videos MP4, WebM, QuickTime up to 200 MiB.',
  'Another type is a 415 `unsupported_media_type`; over the limit a 413 `payload_too_large`; a failed upload leaves nothing behind.',
  'Auth is "mixed" (SPEC.md), decided thus: without a token only images may be uploaded (what registration\'s `profile_picture` needs); such a file has no owner until a registration claims it, and only internal staff can see it meanwhile.',
  'With a token anything accepted may be uploaded and belongs to the caller.',
  '`purpose` (default `general`) narrows what is accepted: `profile_picture` images, `profile_video` videos, `dbs` and `qualification` images or PDFs.',
].join(' ')

export function fileRoutes(app: App, services: Services): void {
  const deps = services.files

  mount(
    app,
    paths,
    {
      method: 'post',
      tags,
      summary: 'Upload a file',
      description: UPLOAD_DESCRIPTION,
      security: [{}, ...bearer],
      middleware: [optionalAuth] as const,
      request: {
        body: multipartBody('The file and its purpose', {
          purpose: { type: 'string', enum: [...FILE_PURPOSES], default: 'general' },
        }),
      },
      responses: {
        201: jsonContent(one(FileSchema), 'Stored'),
        400: problemContent('malformed_request: not multipart/form-data'),
        401: { ...problemContent('unauthenticated: a non-image without a token, or a token that does not work'), headers: bearerChallenge },
        413: problemContent('payload_too_large'),
        415: problemContent('unsupported_media_type'),
        422: commonProblems[422],
        429: commonProblems[429],
      },
    },
    async (c) => {
      const upload = await receiveUploadFor(c, services, { fields: UploadFields, accept: ['image', 'document', 'video'] })
      try {
        const file = await unwrap(
          storeUpload(deps, c.get('user'), {
            purpose: upload.fields.purpose ?? 'general',
            name: upload.file.name || 'upload',
            size: upload.file.size,
            content: upload.file.content(),
          }),
        )
        return c.json({ data: presentFile(file) }, 201)
      } finally {
        await upload.discard()
      }
    },
  )

  mount(
    app,
    paths,
    {
      method: 'get',
      tags,
      summary: "The caller's files, newest first",
      description: 'Only files the caller owns; internal staff too see only their own here.',
      security: bearer,
      middleware: [authApi] as const,
      request: { query: z.object(paginationQuery) },
      responses: { 200: jsonContent(listOf(FileSchema), 'Files'), 401: commonProblems[401], 422: commonProblems[422] },
    },
    async (c) => {
      const { page, per_page } = c.req.valid('query')
      const result = await unwrap(listFiles(deps, currentUser(c), { page, perPage: per_page }))
      return c.json({ data: result.items.map(presentFile), meta: meta(result.total, { page, per_page }) }, 200)
    },
  )

  mount(
    app,
    itemPaths,
    {
      method: 'get',
      tags,
      summary: "A file's metadata",
      description: 'The owner or internal staff; anyone else, and any id that is not a UUID, is a 404.',
      security: bearer,
      middleware: [authApi] as const,
      request: { params: fileIdParam },
      responses: { 200: jsonContent(one(FileSchema), 'File'), 401: commonProblems[401], 404: commonProblems[404] },
    },
    async (c) => c.json({ data: presentFile(await unwrap(getFile(deps, currentUser(c), c.req.valid('param').id))) }, 200),
  )

  mount(
    app,
    itemPaths,
    {
      method: 'put',
      tags,
      summary: 'Rename a file',
      description: 'The owner or internal staff. Only the name changes; the type stays what the content showed.',
      security: bearer,
      middleware: [authApi, jsonBody] as const,
      request: { params: fileIdParam, body: { content: { 'application/json': { schema: RenameBody } }, required: true } },
      responses: { 200: jsonContent(one(FileSchema), 'Renamed'), 400: problemContent('Malformed'), ...commonProblems },
    },
    async (c) => {
      const file = await unwrap(renameFile(deps, currentUser(c), { id: c.req.valid('param').id, name: c.req.valid('json').name }))
      return c.json({ data: presentFile(file) }, 200)
    },
  )

  mount(
    app,
    itemPaths,
    {
      method: 'delete',
      tags,
      summary: 'Delete a file',
      description:
        'The owner or internal staff. The record is soft-deleted and the stored bytes removed; a profile picture or video, or a verification document, that was this file is cleared.',
      security: bearer,
      middleware: [authApi] as const,
      request: { params: fileIdParam },
      responses: { 204: { description: 'Deleted' }, 401: commonProblems[401], 404: commonProblems[404] },
    },
    async (c) => {
      await unwrap(deleteFile(deps, currentUser(c), c.req.valid('param').id))
      return c.body(null, 204)
    },
  )
}
