import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env'
import type { Lifecycle } from './lifecycle'
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
 * When an answer closes its connection (`Connection: close`):
 * - given before the request's body was read (a 413, 415 or 401 refusing it, a 404): the
 *   rest of the body is still on its way, and the Node adapter drains at most 64 MiB or
 *   500 ms of it and then destroys the socket, so a keep-alive client's next request on
 *   that socket would fail. A body that had wholly arrived is drained at once instead.
 * - while the server drains for shutdown, so the client reconnects to another instance.
 */
export function connectionPolicy(lifecycle: Lifecycle) {
  return createMiddleware<AppEnv>(async function connectionPolicy(c, next) {
    await next()
    const incoming = c.env?.incoming
    const unreadBody = incoming !== undefined && !incoming.complete && declaresBody(c)
    if (unreadBody || lifecycle.draining) setAnswerHeader(c, 'connection', 'close')
  })
}
