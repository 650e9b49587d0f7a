import type { ParseArgsConfig } from 'node:util'
import type { Config } from '@tutoring/adapters'
import type { CliIo } from './io'

export type OptionValues = Record<string, string | boolean | undefined>

/** The command line after the flags were parsed. */
export type CommandLine = { values: OptionValues; positionals: string[] }

export type CommandContext = CommandLine & {
  io: CliIo
  config: Config
  /**
   * Prints the command's answer: with `--json` one line of JSON (`json`), else the text
   * lines. Every answer a script may read goes through here.
   */
  answer(json: unknown, lines: string | readonly string[]): void
}

export type Command = {
  name: string
  /** The flags after the name, for the help text. */
  usage: string
  summary: string
  options: NonNullable<ParseArgsConfig['options']>
  /** How many arguments after the flags it takes (default none). */
  positionals?: number
  /**
   * Checks the command line before anything loads or connects (no adapters, no domain, no
   * configuration), so a mistake fails at once: throw `usageError` (exit status 2).
   */
  check?(line: CommandLine): void | Promise<void>
  run(context: CommandContext): Promise<void>
}
