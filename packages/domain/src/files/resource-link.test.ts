import { describe, expect, it } from 'vitest'
import type { User } from '../accounts'
import type { FilesDeps, FilesRepos, MediaSource } from './ports'
import { resourceLink } from './resource-link'
import type { StoredFile } from './stored-file'

const file = (source: MediaSource): StoredFile => ({
  id: source,
  ownerId: 5,
  purpose: 'general',
  name: 'x',
  mimeType: 'image/png',
  size: 1,
  storageKey: `files/${source}`,
  createdAt: new Date(0),
})

/** User 5 has every kind of file. */
const deps: Pick<FilesDeps, 'uow' | 'storage'> = {
  uow: {
    repos: { media: { findSourceFile: async (userId: number, source: MediaSource) => (userId === 5 ? file(source) : undefined) } } as unknown as FilesRepos,
    run: () => Promise.reject(new Error('no transaction needed')),
  },
  storage: {
    put: () => Promise.reject(new Error('read only')),
    signedUrl: async (key, { expiresInSeconds }) => `signed://${key}?ttl=${expiresInSeconds}`,
    delete: async () => undefined,
  },
}

const owner = { id: 5, roleId: 3 } as User
const other = { id: 6, roleId: 3 } as User
const staff = { id: 7, roleId: 200 } as User

describe('resourceLink', () => {
  it('links profile pictures for 5 minutes and videos for 5 days, to anyone', async () => {
    expect((await resourceLink(deps, undefined, { kind: 'profile-image', userId: 5 }))._unsafeUnwrap()).toEqual({ url: 'signed://files/profile_picture?ttl=300', expiresInSeconds: 300 })
    expect((await resourceLink(deps, other, { kind: 'profile-video', userId: 5 }))._unsafeUnwrap().url).toBe('signed://files/profile_video?ttl=432000')
  })

  it('links DBS and qualification documents for 5 minutes to their owner and staff only', async () => {
    for (const kind of ['dbs-image', 'qualification-image'] as const) {
      expect((await resourceLink(deps, owner, { kind, userId: 5 }))._unsafeUnwrap().expiresInSeconds).toBe(300)
      expect((await resourceLink(deps, staff, { kind, userId: 5 })).isOk()).toBe(true)
      expect((await resourceLink(deps, other, { kind, userId: 5 }))._unsafeUnwrapErr().type).toBe('NotFound')
      expect((await resourceLink(deps, undefined, { kind, userId: 5 }))._unsafeUnwrapErr().type).toBe('NotFound')
    }
  })

  it('answers NotFound for a user without the file', async () => {
    expect((await resourceLink(deps, staff, { kind: 'profile-image', userId: 9 }))._unsafeUnwrapErr()).toEqual({ type: 'NotFound', resource: 'resource' })
  })
})
