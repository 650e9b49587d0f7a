import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env'
import { declaresBody } from './request-body'

/** Sets a header on the finished answer, copying it first when its headers are immutable (a redirect's). */
export function setAnswerHeader(c: Context<AppEnv>, name: string, value: string): void {
  try {
    c.res.headers.set(name, value)
  } catch {
    c.res = new Response(c.res.body, c.res)
    c.res.headers.set(name, value)
  }
}

/**
 * An answer given before the request's body was read (a 413, 415 or 401 refusing it, a 404)
 * closes the connection. The rest of the body is still on its way, and the Node adapter
 * drains at most 64 MiB or 500 ms of it and then destroys the socket, so a keep-alive
 * client's next request on that socket would fail; `Connection: close` tells it not to
 * reuse the socket. A body that had wholly arrived is drained at once and keeps it open.
 */
export const closeAfterUnreadBody = createMiddleware<AppEnv>(async function closeAfterUnreadBody(c, next) {
  await next()
  const incoming = c.env?.incoming
  if (incoming && !incoming.complete && declaresBody(c)) setAnswerHeader(c, 'connection', 'close')
})
