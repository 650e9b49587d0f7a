import type { Config, DatabaseHandle, Infrastructure, Services } from '@tutoring/adapters'
import { CliError, type CliIo } from './io'

// The adapters load when a command first needs them, so `help` and bad command lines start fast.

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error))

async function open(config: Config): Promise<DatabaseHandle> {
  const { DataDirInUse, openDatabase } = await import('@tutoring/adapters')
  try {
    return await openDatabase(config)
  } catch (error) {
    // Says itself what to do: the server owns the embedded database.
    if (error instanceof DataDirInUse) throw new CliError(error.message)
    const where = config.DATABASE_URL ? 'the database server' : `the embedded database in ${config.DATA_DIR}`
    throw new CliError(`cannot reach ${where}: ${describe(error)}`)
  }
}

/** The database alone (migrate, seed), closed again whatever happens. */
export async function withDatabase<T>(config: Config, work: (database: DatabaseHandle) => Promise<T>): Promise<T> {
  const database = await open(config)
  try {
    return await work(database)
  } finally {
    await database.close()
  }
}

/**
 * The use cases' dependencies from the same composition root as the server's. Logs go to
 * stderr and stay quiet unless LOG_LEVEL asks, so stdout carries only the command's answer.
 */
export async function withServices<T>(config: Config, io: CliIo, work: (services: Services) => Promise<T>): Promise<T> {
  const { buildServices, createInfrastructure, createLogger } = await import('@tutoring/adapters')
  const database = await open(config)
  let infra: Infrastructure
  try {
    infra = await createInfrastructure(config, { database, logger: createLogger(io.env.LOG_LEVEL ?? 'error', 2) })
  } catch (error) {
    await database.close()
    throw error
  }
  try {
    return await work(buildServices(infra))
  } finally {
    await infra.close()
  }
}
