import { seedReferenceData } from '@tutoring/adapters'
import type { Command } from '../command'
import { CliError, usageError } from '../io'
import { withDatabase } from '../resources'

export const seed: Command = {
  name: 'seed',
  usage: '[--demo N]',
  summary: 'insert the reference data that is missing (safe to repeat); --demo N adds N searchable demo tutors',
  options: { demo: { type: 'string' } },
  async run({ io, config, values }) {
    const demo = values.demo
    if (demo !== undefined && (typeof demo !== 'string' || !/^[1-9]\d{0,4}$/.test(demo))) {
      throw usageError('--demo takes a whole number of tutors, 1 to 99999')
    }
    // Refused before anything is written, so a failed run changes nothing.
    if (demo !== undefined) throw new CliError('seed --demo is not yet available in this build (no demo tutor generator yet)')
    await withDatabase(config, (database) => seedReferenceData(database.db))
    io.out('reference data is in place')
  },
}
