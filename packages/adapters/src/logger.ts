import pino, { type Logger } from 'pino'

export type { Logger }

/** JSON lines on stdout (the CLI passes stderr, 2); secrets in headers never reach the log. */
export function createLogger(level: string, destination: 1 | 2 = 1): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token'], remove: true },
    },
    pino.destination({ dest: destination, sync: true }),
  )
}
