import type { ParseArgsConfig } from 'node:util'
import type { Config } from '@tutoring/adapters'
import type { CliIo } from './io'

export type OptionValues = Record<string, string | boolean | undefined>

export type CommandContext = { io: CliIo; config: Config; values: OptionValues; positionals: string[] }

export type Command = {
  name: string
  /** The flags after the name, for the help text. */
  usage: string
  summary: string
  options: NonNullable<ParseArgsConfig['options']>
  /** How many arguments after the flags it takes (default none). */
  positionals?: number
  run(context: CommandContext): Promise<void>
}
