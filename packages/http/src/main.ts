import { ConfigError, createInfrastructure, createLogger, loadConfig, prepareDatabase, seedDemo, wantsDemo } from '@tutoring/adapters'
import { startServer } from './server'

/** `pnpm start`: configuration from the environment, schema and reference data brought up to date, then serve. */
async function main() {
  const config = loadConfig()
  // Each slow step is logged as it begins, so a start that hangs says where.
  const logger = createLogger(config.LOG_LEVEL)
  logger.info({ database: config.DATABASE_URL ? 'postgres' : 'pglite' }, config.DATABASE_URL ? 'connecting to the database server' : `opening the embedded database in ${config.DATA_DIR}`)
  const demo = await wantsDemo(config)
  const infra = await createInfrastructure(config, { logger })
  const applied = await prepareDatabase(infra.database, (step) => logger.info({ step }, step === 'migrate' ? 'migrating the database' : 'seeding the reference data'))
  if (demo) {
    logger.info({ step: 'demo' }, 'seeding the demo (SEED_DEMO=false skips it)')
    // Printed on purpose (the log's redaction drops `*.password`): the newcomer logs in with it.
    for (const { role, email, password } of await seedDemo(infra)) {
      logger.info({ demoAccount: { role, email }, demoPassword: password }, `demo ${role}: ${email} password ${password}`)
    }
  }
  logger.info({ database: infra.database.kind, migrationsApplied: applied.length }, 'database ready')
  if (infra.processor.mode === 'offline') {
    logger.warn('STRIPE_SECRET_KEY is not set: payments use the built-in offline processor')
  } else {
    logger.info({ processor: 'stripe', apiBase: config.STRIPE_API_BASE ?? 'https://api.stripe.com' }, 'payments use the Stripe processor')
  }
  if (infra.identityProvider.mode === 'offline') {
    logger.warn('IDENTITY_PROVIDER_TOKEN is not set: identity checks use the offline provider (results only through the webhook)')
  }
  logger.info({ mail: infra.mailer.kind }, infra.mailer.kind === 'folder' ? `emails are written to ${config.DATA_DIR}/mail` : 'emails go out by SMTP')
  logger.info({ storage: infra.localDisk ? 'local' : 's3' }, infra.localDisk ? `files are stored in ${config.DATA_DIR}/storage` : `files are stored in the S3 bucket ${config.S3_BUCKET}`)
  const server = await startServer(infra, config.PORT)
  logger.info(`listening on ${server.url} (API docs: ${server.url}/docs)`)
  let stopping = false
  const shutdown = async (signal: string) => {
    // A second signal means "now": the operator will not wait for the drain.
    if (stopping) process.exit(1)
    stopping = true
    logger.info({ signal, deadlineMs: config.SHUTDOWN_TIMEOUT_MS }, 'shutting down: finishing the requests and jobs under way')
    await server.stop()
    await infra.close()
    logger.info('stopped')
    process.exit(0)
  }
  process.once('SIGINT', () => void shutdown('SIGINT'))
  process.once('SIGTERM', () => void shutdown('SIGTERM'))
}

main().catch((error: unknown) => {
  // A bad configuration: one line for each variable at fault.
  const lines = error instanceof ConfigError ? error.problems.map((p) => `invalid configuration: ${p}`) : [error instanceof Error ? error.message : String(error)]
  for (const line of lines) console.error(line)
  process.exit(1)
})
