/**
 * A typed client of the tutoring marketplace API: openapi-fetch over the types openapi-typescript
 * generates from the app's OpenAPI document (src/api.ts). Every call answers `{ data }` on
 * success or `{ error }` typed as the document's problem details (RFC 9457), never a throw for
 * an HTTP error; `unwrap` turns one into the other where a throw suits the caller better.
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch'
import type { components, paths } from './api'

export type { components, operations, paths } from './api'

/** RFC 9457 problem details, as every error answer carries them (`code` is stable). */
export type Problem = components['schemas']['Problem']

export type TutoringClientOptions = {
  /** The API's origin, e.g. `https://api.example.com`. */
  baseUrl: string
  /** A session token from registration or login; `setToken` changes it later. */
  token?: string
  /** A fetch of your own (tests, proxies); the global one by default. */
  fetch?: ClientOptions['fetch']
}

export type TutoringClient = Client<paths> & {
  /** Sends `Authorization: Bearer <token>` on every later call (undefined: none). */
  setToken(token: string | undefined): void
}

export const createTutoringClient = (options: TutoringClientOptions): TutoringClient => {
  const client = createClient<paths>({ baseUrl: options.baseUrl, ...(options.fetch ? { fetch: options.fetch } : {}) })
  let token = options.token
  client.use({
    onRequest({ request }) {
      if (token !== undefined) request.headers.set('authorization', `Bearer ${token}`)
      return request
    },
  })
  return Object.assign(client, {
    setToken(next: string | undefined) {
      token = next
    },
  })
}

/**
 * An `Idempotency-Key` for a POST that may be retried (booking, paying): send the same key on
 * every retry of one intent and the server answers the first outcome again. Spread it into
 * the call's params: `client.POST('/api/bookings', { params: idempotencyKey(key), body })`.
 */
export const idempotencyKey = (key: string = crypto.randomUUID()): { header: { 'idempotency-key': string } } => ({
  header: { 'idempotency-key': key },
})

/** Thrown by unwrap: the problem the server answered, and its status. */
export class ProblemError extends Error {
  constructor(
    readonly problem: Problem,
    readonly status: number,
  ) {
    super(`${status} ${problem.code}: ${problem.detail ?? problem.title}`)
    this.name = 'ProblemError'
  }
}

/** What every openapi-fetch call answers: the data on success, the error otherwise. */
type Answer = { data?: unknown; error?: unknown; response: Response }
/** The data of a successful answer (openapi-fetch types it as possibly undefined, for the error case). */
type DataOf<A extends Answer> = Exclude<A['data'], undefined>

const isProblem = (value: unknown): value is Problem =>
  typeof value === 'object' && value !== null && 'code' in value && 'status' in value && 'title' in value

/** The answer's data, or a ProblemError (a body that is not a problem is wrapped as one). */
export const unwrap = async <A extends Answer>(call: Promise<A>): Promise<DataOf<A>> => {
  const answer = await call
  const { status } = answer.response
  if (answer.error !== undefined) {
    throw new ProblemError(isProblem(answer.error) ? answer.error : { type: 'about:blank', title: String(answer.error), status, code: 'unknown' }, status)
  }
  // openapi-fetch leaves data undefined only with an error, handled above.
  return answer.data as DataOf<A>
}

/** A list answer's page meta (CONTRACT §1). */
export type PageMeta = { current_page: number; last_page: number; per_page: number; total: number }

/**
 * Every item of a paginated list, page after page until `last_page`, each page asked for by
 * `fetchPage(page)` (so the caller keeps its filters typed):
 * `for await (const b of pages((page) => client.GET('/api/bookings', { params: { query: { page } } })))`.
 * A page answered with a problem throws ProblemError.
 */
export async function* pages<T>(
  fetchPage: (page: number) => Promise<{ data?: { data: T[]; meta: PageMeta }; error?: unknown; response: Response }>,
): AsyncGenerator<T, void, undefined> {
  for (let page = 1; ; page++) {
    const { data, meta } = await unwrap(fetchPage(page))
    yield* data
    if (page >= meta.last_page || data.length === 0) return
  }
}
