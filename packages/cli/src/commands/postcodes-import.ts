import { access } from 'node:fs/promises'
import type { Command } from '../command'
import { CliError, usageError } from '../io'
import { withDatabase } from '../resources'

export const postcodesImport: Command = {
  name: 'postcodes:import',
  usage: 'FILE',
  summary:
    'load a postcode CSV into the offline geocoder: the ONS Postcode Directory (pcds/pcd, lat, long) or Code-Point Open with its header row (Postcode, Eastings, Northings; converted from the National Grid to WGS84)',
  options: {},
  positionals: 1,
  async check({ positionals }) {
    const file = positionals[0]
    if (!file) throw usageError('give the CSV file to load')
    await access(file).catch(() => {
      throw new CliError(`cannot read ${file}`)
    })
  },
  async run({ config, positionals, answer }) {
    const file = positionals[0]!
    const { PostcodeFileError, importPostcodesCsv } = await import('@tutoring/adapters')
    const result = await withDatabase(config, (database) =>
      importPostcodesCsv(database.db, file).catch((error: unknown) => {
        if (error instanceof PostcodeFileError) throw new CliError(`${file}: ${error.message}`)
        throw error
      }),
    )
    answer({ imported: result.imported, layout: result.layout, skipped: result.skipped }, `${result.imported} postcodes loaded (${result.layout}), ${result.skipped} rows without a position skipped`)
  },
}
