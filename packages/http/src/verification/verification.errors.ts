import type { ErrorRows } from '../platform/error-spec'

/** The verification context's rows of the error table (platform/domain-errors.ts). */
export const verificationErrors = {
  DocumentMissing: {
    status: 422,
    code: 'document_missing',
    title: 'Document missing',
    detail: (e: { kind: string }) => `No ${e.kind} document has been uploaded.`,
  },
} satisfies ErrorRows
