import pino, { type Logger } from 'pino'

export type { Logger }

const options = (level: string) => ({
  level,
  base: undefined,
  redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token'], remove: true },
})

/** JSON lines on stdout (the CLI passes stderr, 2); secrets in headers never reach the log. */
export function createLogger(level: string, destination: 1 | 2 = 1): Logger {
  return pino(options(level), pino.destination({ dest: destination, sync: true }))
}

/**
 * The server's log: JSON lines, except in development (`NODE_ENV=development`, as `pnpm dev`
 * sets it), where pino-pretty makes them readable. pino-pretty is a development dependency,
 * absent from the production image, so it is loaded only when asked for.
 */
export async function createServerLogger(level: string, environment: string): Promise<Logger> {
  if (environment !== 'development') return createLogger(level)
  const { default: pretty } = await import('pino-pretty')
  return pino(options(level), pretty({ sync: true, translateTime: 'SYS:HH:MM:ss.l' }))
}

/**
 * A start-up that cannot go on: one JSON line on stderr at level fatal, whatever the
 * configured level or environment, so a supervisor or a log pipeline reads why.
 */
export function logFatal(message: string, fields: Record<string, unknown> = {}): void {
  pino({ base: undefined }, pino.destination({ dest: 2, sync: true })).fatal(fields, message)
}
