import type { MediaCategory } from './media-types'

/** Why a file was uploaded; it decides which kinds of content are accepted. */
export const FILE_PURPOSES = ['general', 'profile_picture', 'profile_video', 'dbs', 'qualification', 'note_attachment'] as const
export type FilePurpose = (typeof FILE_PURPOSES)[number]

export const PURPOSE_ACCEPTS: Readonly<Record<FilePurpose, readonly MediaCategory[]>> = {
  general: ['image', 'document', 'video'],
  profile_picture: ['image'],
  profile_video: ['video'],
  dbs: ['image', 'document'],
  qualification: ['image', 'document'],
  note_attachment: ['image', 'document', 'video'],
}

export const isFilePurpose = (value: string): value is FilePurpose => (FILE_PURPOSES as readonly string[]).includes(value)

/** An upload's metadata; the bytes live in object storage under `storageKey`. */
export type StoredFile = {
  id: string
  /** Null for an anonymous upload nobody has claimed yet. */
  ownerId: number | null
  purpose: FilePurpose
  name: string
  mimeType: string
  size: number
  storageKey: string
  createdAt: Date
}

export const FILE_NAME_MAX = 255

/**
 * The last path segment of a client's file name, without control characters, at most 255
 * characters; undefined when nothing is left. Browsers send `C:\fakepath\x.png` and worse.
 */
export function cleanFileName(name: string): string | undefined {
  const lastSegment = name.split(/[\\/]/).pop() ?? ''
  const cleaned = lastSegment.replace(/[\u0000-\u001f\u007f]/g, '').trim()
  if (cleaned === '' || cleaned === '.' || cleaned === '..') return undefined
  return [...cleaned].slice(0, FILE_NAME_MAX).join('')
}
