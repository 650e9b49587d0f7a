import { migrateToLatest } from '@tutoring/adapters'
import type { Command } from '../command'
import { withDatabase } from '../resources'

export const migrate: Command = {
  name: 'migrate',
  usage: '',
  summary: 'bring the database schema up to date',
  options: {},
  async run({ io, config }) {
    const applied = await withDatabase(config, (database) => migrateToLatest(database.db))
    io.out(applied.length > 0 ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : 'the schema is already up to date')
  },
}
