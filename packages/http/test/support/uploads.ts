import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { fakeIncoming, type TestContext, type TestResponse } from './harness'

export type UploadOptions = {
  token?: string
  /** The part's file name; `null` sends the part without one. */
  name?: string | null
  /** The part's declared Content-Type, which the service must ignore. */
  type?: string
  /** Extra parts, sent after the file unless `fieldsFirst`. */
  fields?: Record<string, string>
  fieldsFirst?: boolean
  partName?: string
  /** The TCP peer's address, as the socket would report it (per-address limits). */
  from?: string
}

/** A multipart upload through `app.request`, as a client's FormData would send it. */
export async function upload<T = unknown>(t: TestContext, url: string, bytes: Uint8Array, options: UploadOptions = {}): Promise<TestResponse<T>> {
  const form = new FormData()
  const appendFields = () => Object.entries(options.fields ?? {}).forEach(([k, v]) => form.append(k, v))
  if (options.fieldsFirst) appendFields()
  const blob = new Blob([bytes], { type: options.type ?? 'application/octet-stream' })
  if (options.name === null) form.append(options.partName ?? 'file', blob)
  else form.append(options.partName ?? 'file', blob, options.name ?? 'upload.bin')
  if (!options.fieldsFirst) appendFields()
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {}
  const env = options.from ? { incoming: fakeIncoming(options.from, headers) } : undefined
  const res = await t.app.request(url, { method: 'POST', body: form, headers }, env)
  const text = await res.text()
  let body: unknown
  try {
    body = text ? JSON.parse(text) : undefined
  } catch {
    body = undefined
  }
  return { status: res.status, headers: res.headers, body: body as T, text }
}

/** Every object the local disk storage holds (metadata aside), as keys. */
export async function storedObjects(t: TestContext): Promise<string[]> {
  const root = path.join(t.infra.config.DATA_DIR, 'storage', 'objects')
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)))
}

/** Uploads still waiting in the spool folder; none should outlive their request. */
export async function spooledUploads(t: TestContext): Promise<string[]> {
  return readdir(path.join(t.infra.config.DATA_DIR, 'uploads')).catch(() => [])
}

/** Fetches a signed local link through the app, as a browser following the redirect would. */
export async function follow(t: TestContext, location: string): Promise<Response> {
  const url = new URL(location)
  return t.app.request(`${url.pathname}${url.search}`)
}
