import { createMiddleware } from 'hono/factory'
import type { Context } from 'hono'
import type { Throttle, ThrottleDecision } from '@tutoring/adapters'
import { addAnswerHeader } from './answer-headers'
import type { AppEnv } from './app-env'
import { problems } from './problem'

const UNTHROTTLED = new Set(['/healthz', '/readyz'])

/** 300 a minute per user when a token works, else per client address (CONTRACT §9). */
export function generalThrottle(throttle: Throttle) {
  return createMiddleware<AppEnv>(async function generalThrottle(c, next) {
    if (UNTHROTTLED.has(c.req.path)) return next()
    const user = c.get('user')
    const key = user ? `user:${user.id}` : `addr:${c.get('clientAddress')}`
    const decision = await throttle.consume(key)
    if (!decision.allowed) {
      const problem = problems.tooManyRequests(decision.resetSeconds)
      throw withRateHeaders(problem, throttle, decision)
    }
    addAnswerHeader(c, 'ratelimit-policy', `${throttle.limit};w=${throttle.windowSeconds}`)
    addAnswerHeader(c, 'ratelimit', `limit=${decision.limit}, remaining=${decision.remaining}, reset=${decision.resetSeconds}`)
    return next()
  })
}

/**
 * The stricter limit of login, forgot, reset and the public validate routes: counted per
 * client address and, when the request names one, per email from that address. The email's
 * count is the address's own: counted per email alone, anyone could lock a person out of
 * their account by failing to log in as them ten times a minute.
 */
export function authThrottle(throttle: Throttle, emailOf: (c: Context<AppEnv>) => Promise<string | undefined>) {
  return createMiddleware<AppEnv>(async function authThrottle(c, next) {
    const email = (await emailOf(c))?.trim().toLowerCase()
    const address = c.get('clientAddress')
    const keys = [`addr:${address}`, ...(email ? [`email:${email}:addr:${address}`] : [])]
    const decisions = await Promise.all(keys.map((key) => throttle.consume(key)))
    const denied = decisions.filter((d) => !d.allowed).sort((a, b) => b.resetSeconds - a.resetSeconds)[0]
    if (denied) throw withRateHeaders(problems.tooManyRequests(denied.resetSeconds), throttle, denied)
    await next()
  })
}

function withRateHeaders(problem: ReturnType<typeof problems.tooManyRequests>, throttle: Throttle, decision: ThrottleDecision) {
  Object.assign(problem.headers, {
    'ratelimit-policy': `${throttle.limit};w=${throttle.windowSeconds}`,
    ratelimit: `limit=${decision.limit}, remaining=0, reset=${decision.resetSeconds}`,
  })
  return problem
}

/** The email a JSON body names, for the per-email auth limit; nothing when there is none. */
export async function emailInJsonBody(c: Context<AppEnv>): Promise<string | undefined> {
  try {
    const body: unknown = await c.req.json()
    return body && typeof body === 'object' && typeof (body as { email?: unknown }).email === 'string'
      ? (body as { email: string }).email
      : undefined
  } catch {
    return undefined
  }
}
