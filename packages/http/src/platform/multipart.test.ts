import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { AppEnv } from './app-env'
import { receiveUpload } from './multipart'
import { Problem } from './problem'

describe('receiveUpload', () => {
  let spoolDir: string
  const uncaught: unknown[] = []
  const onUncaught = (error: unknown) => uncaught.push(error)
  beforeAll(async () => {
    spoolDir = await mkdtemp(path.join(tmpdir(), 'tutoring-spool-'))
    process.on('uncaughtException', onUncaught)
  })
  afterAll(async () => {
    process.off('uncaughtException', onUncaught)
    await rm(spoolDir, { recursive: true, force: true })
  })

  /**
   * A route that hands the content to a use case which refuses before reading it; the
   * spool is removed while the unread content is still held (the order a busy machine gives).
   */
  const app = new Hono<AppEnv>()
  app.post('/refuse', async (c) => {
    const upload = await receiveUpload(c, { maxFileBytes: 1024, fields: z.strictObject({}), spoolDir })
    await upload.discard()
    upload.file.content()
    return c.json({ code: 'forbidden' }, 403)
  })
  app.post('/read', async (c) => {
    const upload = await receiveUpload(c, { maxFileBytes: 1024, fields: z.strictObject({}), spoolDir })
    try {
      const chunks: Uint8Array[] = []
      for await (const chunk of upload.file.content()) chunks.push(chunk)
      return c.text(Buffer.concat(chunks).toString('utf8'))
    } finally {
      await upload.discard()
    }
  })
  app.onError((error, c) => (error instanceof Problem ? error.toResponse() : c.text('boom', 500)))

  const form = (text: string) => {
    const body = new FormData()
    body.append('file', new Blob([text]), 'a.txt')
    return body
  }

  it('reads the spooled bytes back once asked', async () => {
    const res = await app.request('/read', { method: 'POST', body: form('hello spool') })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('hello spool')
    expect(await readdir(spoolDir)).toEqual([])
  })

  it('leaves nothing behind and throws nothing when a request is refused before its content is read', async () => {
    for (let i = 0; i < 20; i++) {
      const res = await app.request('/refuse', { method: 'POST', body: form(`refused ${i}`) })
      expect(res.status).toBe(403)
    }
    // An eagerly opened stream fails on the next turns of the event loop, after the removal.
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(uncaught).toEqual([])
    expect(await readdir(spoolDir)).toEqual([])
  })
})
