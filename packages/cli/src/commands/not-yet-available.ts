import type { Command } from '../command'
import { CliError } from '../io'

/** A command the contract names whose use case has not landed yet: it says so and fails. */
export const notYetAvailable = (name: string, summary: string): Command => ({
  name,
  usage: '',
  summary: `${summary} (not yet available)`,
  options: {},
  async run() {
    throw new CliError('not yet available in this build (its use case has not landed)')
  },
})
