import type { UserRepository } from '../accounts'
import type { Clock, PageOf, PageRequest, UnitOfWork } from '../shared'
import type { UploadLimits } from './media-types'
import type { StoredFile } from './stored-file'

/**
 * Object storage by key: S3-compatible, or the local disk default whose links are the
 * service's own signed `/storage/...` route.
 */
export interface ObjectStorage {
  /** Stores exactly `size` bytes of `content`; rejects with the content's own error if reading it fails. */
  put(key: string, content: AsyncIterable<Uint8Array>, meta: { contentType: string; size: number }): Promise<void>
  /** A link anyone holding it may GET the object with, until it expires. */
  signedUrl(key: string, options: { expiresInSeconds: number }): Promise<string>
  /**
   * Removes the object; a missing object is fine. Never rejects: a failure is reported by
   * the adapter (logged with the key), because it runs after the change it follows has
   * been committed and must not turn that change into an error.
   */
  delete(key: string): Promise<void>
}

/** Reads what a file is from its first bytes. */
export interface ContentSniffer {
  /** How many leading bytes `detect` wants to see. */
  readonly headBytes: number
  /** The MIME type the bytes show, or undefined when they are no known type. */
  detect(head: Uint8Array): Promise<string | undefined>
}

export interface IdGenerator {
  uuid(): string
}

export type NewStoredFile = Omit<StoredFile, 'createdAt'>


/** Live (not soft-deleted) files only. */
export interface FileRepository {
  insert(file: NewStoredFile, at: Date): Promise<StoredFile>
  findById(id: string): Promise<StoredFile | undefined>
  /** Newest first. */
  listByOwner(ownerId: number, page: PageRequest): Promise<PageOf<StoredFile>>
  rename(id: string, name: string): Promise<StoredFile>
  softDelete(id: string, at: Date): Promise<void>
}

/** The profile as the media routes answer it. */
export type MediaProfile = {
  id: number
  userId: number
  bio: string | null
  teacherReferenceNumber: string | null
  tutoringExperienceMonths: number | null
  isVisible: boolean
  pictureFileId: string | null
  videoFileId: string | null
}

export type ProfileMediaSlot = 'picture' | 'video'

/** Where a `/api/resources/{kind}/{userId}` file comes from. */
export type MediaSource = 'profile_picture' | 'profile_video' | 'dbs' | 'qualification'

export interface MediaRepository {
  /** The user's profile, locked for this transaction; made blank when missing. */
  lockProfile(userId: number): Promise<MediaProfile>
  setProfileFile(userId: number, slot: ProfileMediaSlot, fileId: string | null): Promise<MediaProfile>
  /** The live file behind a source of a live user, if there is one. */
  findSourceFile(userId: number, source: MediaSource): Promise<StoredFile | undefined>
  /** Forgets every reference to a file (profile picture or video, verification document). */
  detachFile(fileId: string): Promise<void>
}

export interface FilesRepos {
  files: FileRepository
  media: MediaRepository
  users: Pick<UserRepository, 'findById'>
}

export type FilesDeps<Repos extends FilesRepos = FilesRepos> = {
  uow: UnitOfWork<Repos>
  storage: ObjectStorage
  sniffer: ContentSniffer
  ids: IdGenerator
  clock: Clock
  limits: UploadLimits
}
