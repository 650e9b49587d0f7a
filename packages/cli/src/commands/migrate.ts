import type { Command } from '../command'
import { withDatabase } from '../resources'

export const migrate: Command = {
  name: 'migrate',
  usage: '[--down]',
  summary: 'bring the database schema up to date; --down reverts the most recent migration instead',
  options: { down: { type: 'boolean' } },
  async run({ config, values, answer }) {
    const { migrateDown, migrateToLatest } = await import('@tutoring/adapters')
    if (values.down) {
      const reverted = await withDatabase(config, (database) => migrateDown(database.db))
      answer({ reverted }, reverted.length > 0 ? `reverted ${reverted.join(', ')}` : 'no migration to revert')
      return
    }
    const applied = await withDatabase(config, (database) => migrateToLatest(database.db))
    answer({ applied }, applied.length > 0 ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : 'the schema is already up to date')
  },
}

export const migrateStatus: Command = {
  name: 'migrate:status',
  usage: '',
  summary: 'list every migration, applied (with when) or pending',
  options: {},
  async run({ config, answer }) {
    const { migrationStatus } = await import('@tutoring/adapters')
    const migrations = await withDatabase(config, (database) => migrationStatus(database.db))
    const pending = migrations.filter((m) => !m.appliedAt).length
    answer(
      { migrations: migrations.map((m) => ({ name: m.name, applied_at: m.appliedAt?.toISOString() ?? null })), applied: migrations.length - pending, pending },
      [
        ...migrations.map((m) => `${(m.appliedAt ? `applied ${m.appliedAt.toISOString()}` : 'pending').padEnd(33)}${m.name}`),
        pending === 0 ? `all ${migrations.length} migrations applied` : `${pending} of ${migrations.length} migrations pending`,
      ],
    )
  },
}
