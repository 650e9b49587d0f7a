import { parseArgs } from 'node:util'
import type { Config } from '@tutoring/adapters'
import type { Command, OptionValues } from './command'
import { COMMANDS } from './commands'
import { CliError, oneLine, usageError, type CliIo } from './io'

const helpText = (): string[] => [
  'usage: tutoring <command> [flags]',
  '',
  ...COMMANDS.map((c) => `  ${`${c.name} ${c.usage}`.trim()}\n      ${c.summary}`),
  '',
  'Configuration comes from the environment (DATABASE_URL, DATA_DIR, SMTP_URL, ...), as for the server.',
]

/** Runs one command line; answers the exit status. Never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv
  if (name === 'help' || name === '--help' || name === '-h') {
    helpText().forEach((line) => io.out(line))
    return 0
  }
  const label = name ? `tutoring ${name}` : 'tutoring'
  try {
    if (!name) throw usageError('no command given; `tutoring help` lists them')
    const command = COMMANDS.find((c) => c.name === name)
    if (!command) throw usageError(`unknown command "${name}"; \`tutoring help\` lists them`)
    const { values, positionals } = parseFlags(command, rest)
    if (values.help) {
      io.out(`usage: tutoring ${command.name} ${command.usage}`.trim())
      io.out(`  ${command.summary}`)
      return 0
    }
    await command.run({ io, config: await configFrom(io), values, positionals })
    return 0
  } catch (error) {
    const failure = asCliError(error)
    io.err(`${label}: ${oneLine(failure.message)}`)
    return failure.exitCode
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

function parseFlags(command: Command, args: string[]): { values: OptionValues; positionals: string[] } {
  const allowed = command.positionals ?? 0
  let parsed: { values: OptionValues; positionals: string[] }
  try {
    parsed = parseArgs({ args, options: { ...command.options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: allowed > 0 })
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
