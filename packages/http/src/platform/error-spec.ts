import type { DomainErrorType } from '@tutoring/domain'
import type { ProblemCode } from './problem-types'

/** How one domain error answers over HTTP (CONTRACT §2): its status, code, title and detail. */
export type ErrorSpec = {
  status: number
  code: ProblemCode
  title: string
  detail?: (error: never) => string
  /** Extension members (RFC 9457 §3.2) the error carries beside the standard ones. */
  extensions?: (error: never) => Record<string, unknown>
}

/** Rows of the error table: a room's, for the error types its context declares. */
export type ErrorRows = Partial<Record<DomainErrorType, ErrorSpec>>
