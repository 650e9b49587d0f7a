/** What a test may send a listening server: a bearer token, JSON or a multipart form, extra headers. */
export type HttpCallOptions = { token?: string; json?: unknown; form?: FormData; headers?: Record<string, string> }
export type HttpAnswer<T> = { status: number; headers: Headers; body: T; text: string }

/**
 * One request to a server listening at `baseUrl`, as a client makes it over the network. The
 * body is parsed when it is JSON; an empty one is undefined and any other stays text.
 */
export async function httpCall<T>(baseUrl: string, method: string, path: string, options: HttpCallOptions = {}): Promise<HttpAnswer<T>> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token) headers.authorization = `Bearer ${options.token}`
  if (options.json !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body: options.form ?? (options.json === undefined ? undefined : JSON.stringify(options.json)) })
  const text = await res.text()
  return { status: res.status, headers: res.headers, body: parsed(text) as T, text }
}

function parsed(text: string): unknown {
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
