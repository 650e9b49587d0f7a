import type { Command } from '../command'
import { withDatabase } from '../resources'

export const migrate: Command = {
  name: 'migrate',
  usage: '[--down]',
  summary: 'bring the database schema up to date; --down reverts the most recent migration instead',
  options: { down: { type: 'boolean' } },
  async run({ io, config, values }) {
    const { migrateDown, migrateToLatest } = await import('@tutoring/adapters')
    if (values.down) {
      const reverted = await withDatabase(config, (database) => migrateDown(database.db))
      io.out(reverted.length > 0 ? `reverted ${reverted.join(', ')}` : 'no migration to revert')
      return
    }
    const applied = await withDatabase(config, (database) => migrateToLatest(database.db))
    io.out(applied.length > 0 ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : 'the schema is already up to date')
  },
}

export const migrateStatus: Command = {
  name: 'migrate:status',
  usage: '',
  summary: 'list every migration, applied (with when) or pending',
  options: {},
  async run({ io, config }) {
    const { migrationStatus } = await import('@tutoring/adapters')
    const migrations = await withDatabase(config, (database) => migrationStatus(database.db))
    for (const m of migrations) io.out(`${(m.appliedAt ? `applied ${m.appliedAt.toISOString()}` : 'pending').padEnd(33)}${m.name}`)
    const pending = migrations.filter((m) => !m.appliedAt).length
    io.out(pending === 0 ? `all ${migrations.length} migrations applied` : `${pending} of ${migrations.length} migrations pending`)
  },
}
