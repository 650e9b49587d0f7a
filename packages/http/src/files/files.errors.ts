import type { ErrorRows } from '../platform/error-spec'

/** The files context's rows of the error table (platform/domain-errors.ts). */
export const filesErrors = {
  UnsupportedMediaType: {
    status: 415,
    code: 'unsupported_media_type',
    title: 'Unsupported media type',
    detail: (e: { detected: string | null; accepted: string[] }) =>
      `The content is ${e.detected ?? 'of no accepted type'}; this route takes ${e.accepted.join(', ')}.`,
  },
  PayloadTooLarge: {
    status: 413,
    code: 'payload_too_large',
    title: 'Payload too large',
    detail: (e: { limitBytes: number }) => `An upload of this type may be at most ${e.limitBytes} bytes.`,
  },
} satisfies ErrorRows
