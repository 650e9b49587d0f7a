import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { buffer } from 'node:stream/consumers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { UrlSigner } from '../../crypto'
import { LocalDiskStorage } from './local-disk-storage'

async function* bytes(...chunks: string[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield new TextEncoder().encode(chunk)
}

describe('local disk storage', () => {
  let root: string
  let storage: LocalDiskStorage
  const now = new Date('2026-11-22T10:00:00Z')
  const signer = new UrlSigner(Buffer.alloc(32, 1), () => now)
  const errors: unknown[] = []
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'storage-test-'))
    storage = new LocalDiskStorage({ root, baseUrl: 'http://api.test', sign: (p, at) => signer.sign(p, at), now: () => now, logger: { error: (o: unknown) => errors.push(o) } as never })
  })
  afterAll(() => rm(root, { recursive: true, force: true }))

  it('stores an object and opens it again with its content type', async () => {
    await storage.put('files/a1', bytes('hello ', 'world'), { contentType: 'image/png', size: 11 })
    const object = await storage.open('files/a1')
    expect(object?.contentType).toBe('image/png')
    expect((await buffer(object!.body)).toString()).toBe('hello world')
  })

  it('links to its own signed route, valid for the lifetime asked', async () => {
    const url = await storage.signedUrl('files/a1', { expiresInSeconds: 300 })
    const parsed = new URL(url)
    expect(`${parsed.origin}${parsed.pathname}`).toBe('http://api.test/storage/files/a1')
    expect(parsed.searchParams.get('expires')).toBe(String(now.getTime() / 1000 + 300))
    expect(signer.verify(`${parsed.pathname}${parsed.search}`)).toBe(true)
  })

  it('leaves nothing behind when the content fails half way', async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield new Uint8Array([1, 2, 3])
      throw new RangeError('too long')
    }
    await expect(storage.put('files/broken', failing(), { contentType: 'image/png', size: 3 })).rejects.toThrow('too long')
    expect(await storage.open('files/broken')).toBeUndefined()
    expect((await readdir(path.join(root, 'objects', 'files'))).filter((f) => f.includes('broken'))).toEqual([])
  })

  it('deletes an object, and deleting it twice is fine', async () => {
    await storage.put('files/gone', bytes('x'), { contentType: 'application/pdf', size: 1 })
    await storage.delete('files/gone')
    await storage.delete('files/gone')
    expect(await storage.open('files/gone')).toBeUndefined()
    expect(errors).toEqual([])
  })

  it('refuses keys that could leave its folder', async () => {
    for (const key of ['../app.key', 'files/../../x', '/etc/passwd', 'files//a', '.hidden']) {
      expect(await storage.open(key)).toBeUndefined()
      await expect(storage.put(key, bytes('x'), { contentType: 'image/png', size: 1 })).rejects.toThrow('not a valid object key')
    }
  })
})
