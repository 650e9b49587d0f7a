import type { Unauthenticated } from '../accounts'
import type { Forbidden, NotFound, ValidationFailed } from '../shared'

export type UnsupportedMediaType = {
  type: 'UnsupportedMediaType'
  /** What the content turned out to be, when it is anything known. */
  detected: string | null
  accepted: string[]
}
export const unsupportedMediaType = (detected: string | null, accepted: string[]): UnsupportedMediaType => ({
  type: 'UnsupportedMediaType',
  detected,
  accepted,
})

export type PayloadTooLarge = { type: 'PayloadTooLarge'; limitBytes: number }
export const payloadTooLarge = (limitBytes: number): PayloadTooLarge => ({ type: 'PayloadTooLarge', limitBytes })

export type StoreUploadError = UnsupportedMediaType | PayloadTooLarge | Unauthenticated | ValidationFailed

export type FilesError = StoreUploadError | NotFound | Forbidden
