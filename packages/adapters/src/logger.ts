import pino, { type Logger } from 'pino'

export type { Logger }

/** JSON lines on stdout; secrets in headers never reach the log. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token'], remove: true },
  })
}
