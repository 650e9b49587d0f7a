import { parseArgs } from 'node:util'
import type { Config } from '@tutoring/adapters'
import type { Command, CommandContext, CommandLine } from './command'
import { COMMANDS } from './commands'
import { CliError, oneLine, usageError, type CliIo } from './io'

/** Every command takes these besides its own. */
const COMMON_OPTIONS = { help: { type: 'boolean', short: 'h' }, json: { type: 'boolean' } } as const

const helpText = (): string[] => [
  'usage: tutoring <command> [flags]',
  '       tutoring help <command>',
  '',
  ...COMMANDS.map((c) => `  ${`${c.name} ${c.usage}`.trim()}\n      ${c.summary}`),
  '',
  'Every command takes --json: its answer as one line of JSON on stdout.',
  'Configuration comes from the environment (DATABASE_URL, DATA_DIR, SMTP_URL, ...), as for the server.',
]

const commandHelp = (command: Command): string[] => [
  `usage: tutoring ${`${command.name} ${command.usage}`.trim()} [--json]`,
  `  ${command.summary}`,
]

const findCommand = (name: string): Command => {
  const command = COMMANDS.find((c) => c.name === name)
  if (!command) throw usageError(`unknown command "${name}"; \`tutoring help\` lists them`)
  return command
}

/** Runs one command line; answers the exit status. Never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv
  const label = name && name !== 'help' ? `tutoring ${name}` : 'tutoring'
  try {
    if (name === 'help' || name === '--help' || name === '-h') {
      if (rest.length > 1) throw usageError('help takes at most one command name')
      const lines = rest[0] === undefined ? helpText() : commandHelp(findCommand(rest[0]))
      lines.forEach((line) => io.out(line))
      return 0
    }
    if (!name) throw usageError('no command given; `tutoring help` lists them')
    const command = findCommand(name)
    const line = parseFlags(command, rest)
    if (line.values.help) {
      commandHelp(command).forEach((text) => io.out(text))
      return 0
    }
    // The whole command line is checked before the configuration and the adapters load.
    await command.check?.(line)
    await command.run(contextOf(line, io, await configFrom(io)))
    return 0
  } catch (error) {
    const failure = asCliError(error)
    io.err(`${label}: ${oneLine(failure.message)}`)
    return failure.exitCode
  }
}

function contextOf(line: CommandLine, io: CliIo, config: Config): CommandContext {
  const json = line.values.json === true
  return {
    ...line,
    io,
    config,
    answer(value, lines) {
      if (json) io.out(JSON.stringify(value))
      else for (const text of typeof lines === 'string' ? [lines] : lines) io.out(text)
    },
  }
}

/** Loaded here, not at the top: `help` and a bad command line need none of the adapters. */
async function configFrom(io: CliIo): Promise<Config> {
  const { ConfigError, loadConfig } = await import('@tutoring/adapters')
  try {
    return loadConfig(io.env)
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message)
    throw error
  }
}

function parseFlags(command: Command, args: string[]): CommandLine {
  const allowed = command.positionals ?? 0
  let parsed: CommandLine
  try {
    parsed = parseArgs({ args, options: { ...command.options, ...COMMON_OPTIONS }, strict: true, allowPositionals: allowed > 0 })
  } catch (error) {
    // node's messages run on with advice about `--`; the first sentence says it all.
    const message = error instanceof Error ? error.message.split(/\.\s/)[0]! : String(error)
    throw usageError(message.replace(/\.$/, ''))
  }
  if (parsed.positionals.length > allowed) throw usageError(`too many arguments: ${parsed.positionals.slice(allowed).join(' ')}`)
  return parsed
}

function asCliError(error: unknown): CliError {
  if (error instanceof CliError) return error
  const code = (error as { code?: unknown } | null)?.code
  if (code === '42P01') return new CliError('the database has no schema yet; run `tutoring migrate` first')
  return new CliError(`failed: ${error instanceof Error ? error.message : String(error)}`)
}
