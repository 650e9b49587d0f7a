import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SAMPLES, padded } from '@tutoring/adapters/testing'
import { startServer } from '../src/server'
import { createTestContext, type TestContext } from './support/harness'
import { spooledUploads, storedObjects } from './support/uploads'

type FileBody = { data: { id: string; mime_type: string; size: number } }

/** Uploads through a real listening server: the Node request stream, not `app.request`. */
describe('uploads through a listening server', () => {
  let t: TestContext
  let server: Awaited<ReturnType<typeof startServer>>
  let token: string
  beforeAll(async () => {
    t = await createTestContext('pglite', { UPLOAD_MAX_VIDEO_BYTES: String(2 * 1024 * 1024) })
    server = await startServer(t.infra, 0)
    token = (await t.register('tutor')).token
  })
  afterAll(async () => {
    await server?.stop()
    await t?.close()
  })

  const post = (bytes: Uint8Array, name: string) => {
    const form = new FormData()
    form.append('purpose', 'general')
    form.append('file', new Blob([bytes]), name)
    return fetch(`${server.url}/api/files`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } })
  }

  it('stores a video streamed over the socket and serves it back through the redirect', async () => {
    const video = padded('mp4', 1024 * 1024 + 17)
    const res = await post(video, 'lesson.mp4')
    expect(res.status).toBe(201)
    const body = (await res.json()) as FileBody
    expect(body.data).toMatchObject({ mime_type: 'video/mp4', size: video.length })
    const row = await t.db.selectFrom('files').select('storage_key').where('id', '=', body.data.id).executeTakeFirstOrThrow()
    const link = await t.infra.storage.signedUrl(row.storage_key, { expiresInSeconds: 60 })
    const served = await fetch(`${server.url}${new URL(link).pathname}${new URL(link).search}`)
    expect(served.status).toBe(200)
    // Buffer equality: a deep equality over a million elements would take seconds.
    expect(Buffer.from(await served.arrayBuffer()).equals(video)).toBe(true)
  })

  it('refuses at once a body announcing more than the limit', async () => {
    const outcome = await post(padded('mp4', 8 * 1024 * 1024), 'huge.mp4').then(
      (res) => res.status,
      () => 'connection closed',
    )
    // Node may close the socket before the client has sent everything; either way it is refused.
    expect([413, 'connection closed']).toContain(outcome)
  })

  it('stops reading a chunked body once it passes the limit, keeps nothing and serves the next request', async () => {
    const before = await storedObjects(t)
    const boundary = 'xBOUNDARYx'
    const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.mp4"\r\nContent-Type: video/mp4\r\n\r\n`)
    let sent = 0
    const chunk = padded('mp4', 64 * 1024)
    // Far more than the limit, sent without a Content-Length; the server must not wait for the end.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head)
      },
      pull(controller) {
        if (sent >= 64 * 1024 * 1024) return controller.close()
        sent += chunk.length
        controller.enqueue(chunk)
      },
    })
    const outcome = await fetch(`${server.url}/api/files`, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    } as RequestInit).then(
      (res) => res.status,
      () => 'connection closed',
    )
    // Node may close the socket before the client has sent everything; either way it is refused.
    expect([413, 'connection closed']).toContain(outcome)
    expect(sent).toBeLessThan(64 * 1024 * 1024)
    expect(await storedObjects(t)).toEqual(before)
    expect(await spooledUploads(t)).toEqual([])
    expect((await post(SAMPLES.png, 'still-works.png')).status).toBe(201)
  })
})
