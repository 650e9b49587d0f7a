import type { ParseArgsConfig } from 'node:util'
import type { Config } from '@tutoring/adapters'
import type { CliIo } from './io'

export type OptionValues = Record<string, string | boolean | undefined>

export type CommandContext = { io: CliIo; config: Config; values: OptionValues }

export type Command = {
  name: string
  /** The flags after the name, for the help text. */
  usage: string
  summary: string
  options: NonNullable<ParseArgsConfig['options']>
  run(context: CommandContext): Promise<void>
}
