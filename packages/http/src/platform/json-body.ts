import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env'
import { problems } from './problem'

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i

/**
 * Routes with a JSON body: any other content type, or text that is not JSON, is a 400
 * before validation, so a 422 always means "valid JSON, wrong fields".
 */
export const jsonBody = createMiddleware<AppEnv>(async function jsonBody(c, next) {
  const type = c.req.header('content-type') ?? ''
  if (!JSON_TYPE.test(type)) throw problems.malformed('Send the body as application/json.')
  try {
    await c.req.json()
  } catch {
    throw problems.malformed('The body is not valid JSON.')
  }
  await next()
})
