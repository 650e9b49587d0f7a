import type { S3Client } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ObjectStorage } from '@tutoring/domain/files'
import { startLocalS3, type LocalS3 } from '../../testing/local-s3'
import { SAMPLES } from '../../testing/media-samples'
import { createS3Client, s3Storage } from './s3-storage'

async function* chunks(bytes: Uint8Array, size = 7): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size)
}

/** A local S3-compatible server (s3rver, pure JavaScript) started for these tests. */
describe('S3 storage against a local S3-compatible server', () => {
  let s3: LocalS3
  let client: S3Client
  let storage: ObjectStorage
  const errors: unknown[] = []

  beforeAll(async () => {
    s3 = await startLocalS3()
    client = createS3Client(s3)
    storage = s3Storage(client, { bucket: s3.bucket, logger: { error: (o: unknown) => errors.push(o) } as never })
  })
  afterAll(async () => {
    client?.destroy()
    await s3?.stop()
  })

  it('puts an object whose presigned GET link answers its bytes and type over HTTP', async () => {
    await storage.put('files/photo', chunks(SAMPLES.png), { contentType: 'image/png', size: SAMPLES.png.length })
    const url = await storage.signedUrl('files/photo', { expiresInSeconds: 300 })
    expect(url).toMatch(/\/tutoring-test\/files\/photo\?/)
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('300')
    const res = await fetch(url)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
    expect(res.headers.get('content-disposition')).toBe('inline')
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(SAMPLES.png)
  })

  it('presigns profile video links for five days', async () => {
    await storage.put('files/video', chunks(SAMPLES.mp4), { contentType: 'video/mp4', size: SAMPLES.mp4.length })
    const url = await storage.signedUrl('files/video', { expiresInSeconds: 5 * 86_400 })
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('432000')
    expect((await fetch(url)).status).toBe(200)
  })

  it('deletes an object, so its link answers 404', async () => {
    await storage.put('files/doomed', chunks(SAMPLES.pdf), { contentType: 'application/pdf', size: SAMPLES.pdf.length })
    const url = await storage.signedUrl('files/doomed', { expiresInSeconds: 300 })
    expect((await fetch(url)).status).toBe(200)
    await storage.delete('files/doomed')
    expect((await fetch(url)).status).toBe(404)
    expect(errors).toEqual([])
  })

  it('rejects a put whose content fails, and stores nothing under the key', async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield SAMPLES.png.subarray(0, 8)
      throw new RangeError('upload exceeds 8 bytes')
    }
    await expect(storage.put('files/failed', failing(), { contentType: 'image/png', size: SAMPLES.png.length })).rejects.toThrow()
    const url = await storage.signedUrl('files/failed', { expiresInSeconds: 300 })
    expect((await fetch(url)).status).toBe(404)
  })
})
