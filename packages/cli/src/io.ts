export type Env = Record<string, string | undefined>

/** What a command may touch of the outside world; tests pass their own. */
export type CliIo = {
  env: Env
  out(line: string): void
  err(line: string): void
  /** How far long work has got, on stderr: on a terminal one line that keeps being rewritten, elsewhere a line per step. */
  progress?(text: string): void
  /** Aborted by SIGINT/SIGTERM; ends `--loop`. */
  signal?: AbortSignal
}

/** An expected failure: its message is the one line printed on stderr. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message)
  }
}

/** Wrong command line: exit status 2, like most Unix tools. */
export const usageError = (message: string): CliError => new CliError(message, 2)

export const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim()
