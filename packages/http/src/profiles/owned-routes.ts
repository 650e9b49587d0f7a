import { z } from '@hono/zod-openapi'
import { authApi } from '../platform/auth'
import { jsonBody } from '../platform/json-body'
import { listOf, one, paginationQuery } from '../platform/pagination'
import { bearer, commonProblems, jsonContent, problemContent } from '../platform/routes'

/**
 * Route shapes shared by the collections a user keeps about themselves (education,
 * addresses, ...). The policy is the same everywhere: the owner or internal staff; another
 * user's record is a 404, never a 403, so ids reveal nothing.
 */
const userId = z.coerce
  .number()
  .int()
  .positive()
  .optional()
  .openapi({
    description:
      "Whose records: the caller's when absent. Internal staff may name any user; anyone else naming another user gets 404.",
  })

export const listQuery = z.object({ ...paginationQuery, user_id: userId })
export const ownerQuery = z.object({ user_id: userId })
export const idParam = z.object({ id: z.coerce.number().int().positive() })
export const jsonRequest = <S>(schema: S) => ({ body: { content: { 'application/json': { schema } }, required: true } })

const POLICY = 'The owner or internal staff; another user\'s record answers 404.'
const describe = (description?: string) => [description, POLICY].filter(Boolean).join('\n\n')

export const listRoute = <S extends z.ZodType>(tags: string[], summary: string, item: S, description?: string) => ({
  method: 'get' as const,
  tags,
  summary,
  description: describe(description),
  security: bearer,
  middleware: [authApi],
  request: { query: listQuery },
  responses: { 200: jsonContent(listOf(item), 'A page of records'), ...commonProblems },
})

export const createRoute = <B, S extends z.ZodType>(tags: string[], summary: string, body: B, item: S, description?: string) => ({
  method: 'post' as const,
  tags,
  summary,
  description: describe(description),
  security: bearer,
  middleware: [authApi, jsonBody],
  request: { query: ownerQuery, ...jsonRequest(body) },
  responses: { 201: jsonContent(one(item), 'Created'), 400: problemContent('Malformed'), ...commonProblems },
})

export const updateRoute = <B, S extends z.ZodType>(tags: string[], summary: string, body: B, item: S, description?: string) => ({
  method: 'put' as const,
  tags,
  summary,
  description: describe(description),
  security: bearer,
  middleware: [authApi, jsonBody],
  request: { params: idParam, ...jsonRequest(body) },
  responses: { 200: jsonContent(one(item), 'Updated'), 400: problemContent('Malformed'), ...commonProblems },
})

export const deleteRoute = (tags: string[], summary: string, description?: string) => ({
  method: 'delete' as const,
  tags,
  summary,
  description: describe(description),
  security: bearer,
  middleware: [authApi],
  request: { params: idParam },
  responses: { 204: { description: 'Removed' }, ...commonProblems },
})
