/**
 * What may be uploaded (CONTRACT.md §7): the type is the one the content shows, never the
 * name or the declared type. Images and PDFs up to 10 MiB, videos up to 200 MiB.
 */
export type MediaCategory = 'image' | 'document' | 'video'

export const MEDIA_TYPES: Readonly<Record<string, MediaCategory>> = {
  'image/jpeg': 'image',
  'image/png': 'image',
  'image/webp': 'image',
  'application/pdf': 'document',
  'video/mp4': 'video',
  'video/webm': 'video',
  'video/quicktime': 'video',
}

export const MIB = 1024 * 1024

export type UploadLimits = Readonly<Record<MediaCategory, number>>

/**
 * CONTRACT §15: what one client address may upload without an account (registration's profile
 * picture) in an hour. Three pictures' worth at the image limit would be more than anyone
 * registering needs; this keeps an anonymous caller from filling the storage.
 */
export const ANONYMOUS_UPLOAD_ALLOWANCE = { bytes: 20 * MIB, windowSeconds: 3600 } as const

export const categoryOf = (mimeType: string): MediaCategory | undefined =>
  Object.hasOwn(MEDIA_TYPES, mimeType) ? MEDIA_TYPES[mimeType] : undefined

export const typesOf = (categories: readonly MediaCategory[]): string[] =>
  Object.entries(MEDIA_TYPES)
    .filter(([, category]) => categories.includes(category))
    .map(([mimeType]) => mimeType)

/** The largest upload any of these categories allows: the cap for reading a request. */
export const largestLimit = (limits: UploadLimits, categories: readonly MediaCategory[]): number =>
  Math.max(...categories.map((category) => limits[category]))
