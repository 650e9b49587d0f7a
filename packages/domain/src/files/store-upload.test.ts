import { err, ok, type Result } from 'neverthrow'
import { describe, expect, it } from 'vitest'
import type { User } from '../accounts'
import type { UnitOfWork } from '../shared'
import { MIB } from './media-types'
import type { ContentSniffer, FilesDeps, FilesRepos, MediaProfile, ObjectStorage } from './ports'
import { storeUpload } from './store-upload'
import type { StoredFile } from './stored-file'

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4])
const PDF = new TextEncoder().encode('%PDF-1.4 tiny')
const TEXT = new TextEncoder().encode('just words, named picture.png')

/** Knows PNG and PDF by their magic bytes, like the real sniffer. */
const sniffer: ContentSniffer = {
  headBytes: 8,
  detect: async (head) => {
    if (head[0] === 0x89 && head[1] === 0x50) return 'image/png'
    if (new TextDecoder().decode(head.subarray(0, 4)) === '%PDF') return 'application/pdf'
    return undefined
  },
}

function memoryStorage() {
  const objects = new Map<string, Uint8Array>()
  const storage: ObjectStorage = {
    async put(key, content) {
      const chunks: number[] = []
      for await (const chunk of content) chunks.push(...chunk)
      objects.set(key, new Uint8Array(chunks))
    },
    signedUrl: async (key) => `memory://${key}`,
    delete: async (key) => {
      objects.delete(key)
    },
  }
  return { storage, objects }
}

/** Rows kept in a map; a transaction works on a copy that is kept only on Ok. */
function memoryUow(failInsert = false) {
  let rows = new Map<string, StoredFile>()
  const reposOver = (table: Map<string, StoredFile>): FilesRepos => ({
    files: {
      async insert(file, at) {
        if (failInsert) throw new Error('database went away')
        const stored = { ...file, createdAt: at }
        table.set(file.id, stored)
        return stored
      },
      findById: async (id) => table.get(id),
      listByOwner: async () => ({ items: [], total: 0 }),
      rename: async (id) => table.get(id)!,
      softDelete: async (id) => {
        table.delete(id)
      },
    },
    media: {
      lockProfile: async () => ({}) as MediaProfile,
      setProfileFile: async () => ({}) as MediaProfile,
      findSourceFile: async () => undefined,
      detachFile: async () => undefined,
    },
    users: { findById: async () => undefined },
  })
  const uow: UnitOfWork<FilesRepos> = {
    get repos() {
      return reposOver(rows)
    },
    async run<T, E>(work: (repos: FilesRepos) => Promise<Result<T, E>>) {
      const copy = new Map(rows)
      const result = await work(reposOver(copy))
      if (result.isOk()) rows = copy
      return result
    },
  }
  return { uow, rows: () => rows }
}

function setup(options: { failInsert?: boolean } = {}) {
  const { storage, objects } = memoryStorage()
  const { uow, rows } = memoryUow(options.failInsert)
  let n = 0
  const deps: FilesDeps = {
    uow,
    storage,
    sniffer,
    ids: { uuid: () => `00000000-0000-4000-8000-00000000000${++n}` },
    clock: { now: () => new Date('2026-11-22T10:00:00Z') },
    limits: { image: 16, document: 1 * MIB, video: 200 * MIB },
  }
  return { deps, objects, rows }
}

async function* chunks(bytes: Uint8Array, size = 3): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size)
}

const user = { id: 7, roleId: 1 } as User

describe('storeUpload', () => {
  it('stores an image by its content and records it for the uploader', async () => {
    const { deps, objects, rows } = setup()
    const result = await storeUpload(deps, user, { purpose: 'general', name: 'C:\\fakepath\\me.png', size: PNG.length, content: chunks(PNG) })
    const file = result._unsafeUnwrap()
    expect(file).toMatchObject({ ownerId: 7, name: 'me.png', mimeType: 'image/png', size: PNG.length, storageKey: `files/${file.id}` })
    expect(objects.get(file.storageKey)).toEqual(PNG)
    expect(rows().size).toBe(1)
  })

  it('refuses content of an unknown type whatever its name says, and keeps nothing', async () => {
    const { deps, objects, rows } = setup()
    const result = await storeUpload(deps, user, { purpose: 'general', name: 'photo.png', size: TEXT.length, content: chunks(TEXT) })
    expect(result._unsafeUnwrapErr()).toMatchObject({ type: 'UnsupportedMediaType', detected: null })
    expect(objects.size).toBe(0)
    expect(rows().size).toBe(0)
  })

  it('refuses a known type the purpose does not take', async () => {
    const { deps } = setup()
    const result = await storeUpload(deps, user, { purpose: 'profile_picture', name: 'cv.pdf', size: PDF.length, content: chunks(PDF) })
    expect(result._unsafeUnwrapErr()).toMatchObject({ type: 'UnsupportedMediaType', detected: 'application/pdf', accepted: ['image/jpeg', 'image/png', 'image/webp'] })
  })

  it('lets an anonymous client upload an image, unowned, but nothing else', async () => {
    const { deps } = setup()
    const image = await storeUpload(deps, undefined, { purpose: 'profile_picture', name: 'me.png', size: PNG.length, content: chunks(PNG) })
    expect(image._unsafeUnwrap().ownerId).toBeNull()
    const pdf = await storeUpload(deps, undefined, { purpose: 'general', name: 'cv.pdf', size: PDF.length, content: chunks(PDF) })
    expect(pdf._unsafeUnwrapErr().type).toBe('Unauthenticated')
  })

  it('refuses an upload declared over its type limit before storing anything', async () => {
    const { deps, objects } = setup()
    const result = await storeUpload(deps, user, { purpose: 'general', name: 'big.png', size: 17, content: chunks(PNG) })
    expect(result._unsafeUnwrapErr()).toEqual({ type: 'PayloadTooLarge', limitBytes: 16 })
    expect(objects.size).toBe(0)
  })

  it('stops a content longer than the limit while it streams, whatever size was declared', async () => {
    const { deps, objects, rows } = setup()
    const long = new Uint8Array([...PNG, ...new Uint8Array(20)])
    const result = await storeUpload(deps, user, { purpose: 'general', name: 'liar.png', size: 12, content: chunks(long) })
    expect(result._unsafeUnwrapErr()).toEqual({ type: 'PayloadTooLarge', limitBytes: 16 })
    expect(objects.size).toBe(0)
    expect(rows().size).toBe(0)
  })

  it('removes the stored object when the row cannot be written', async () => {
    const { deps, objects } = setup({ failInsert: true })
    await expect(storeUpload(deps, user, { purpose: 'general', name: 'me.png', size: PNG.length, content: chunks(PNG) })).rejects.toThrow('database went away')
    expect(objects.size).toBe(0)
  })

  it('undoes the row and the object when the attached work refuses', async () => {
    const { deps, objects, rows } = setup()
    const result = await storeUpload(deps, user, {
      purpose: 'dbs',
      name: 'dbs.pdf',
      size: PDF.length,
      content: chunks(PDF),
      attach: async () => err({ type: 'NotFound' as const, resource: 'verification' }),
    })
    expect(result._unsafeUnwrapErr()).toEqual({ type: 'NotFound', resource: 'verification' })
    expect(objects.size).toBe(0)
    expect(rows().size).toBe(0)
  })

  it('answers what the attached work answers', async () => {
    const { deps } = setup()
    const result = await storeUpload(deps, user, {
      purpose: 'qualification',
      name: 'degree.pdf',
      size: PDF.length,
      content: chunks(PDF),
      attach: async (_repos, file) => ok({ documentFileId: file.id }),
    })
    expect(result._unsafeUnwrap().documentFileId).toMatch(/^0{8}-/)
  })

  it('refuses a name that is only a path', async () => {
    const { deps } = setup()
    const result = await storeUpload(deps, user, { purpose: 'general', name: 'a/b/', size: PNG.length, content: chunks(PNG) })
    expect(result._unsafeUnwrapErr().type).toBe('ValidationFailed')
  })
})
