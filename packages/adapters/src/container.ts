import { randomUUID } from 'node:crypto'
import path from 'node:path'
import type Redis from 'ioredis'
import { sql } from 'kysely'
import type { AddressDirectory, BusyCalendar, TravelTimes } from '@tutoring/domain/availability'
import type { BookingConfig } from '@tutoring/domain/booking'
import type { BookingPaymentsConfig } from '@tutoring/domain/booking-payments'
import type { ContentSniffer, IdGenerator, ObjectStorage, UploadLimits } from '@tutoring/domain/files'
import type { EndpointUrlCheck, WebhookSender } from '@tutoring/domain/integrations'
import type { PushGateway } from '@tutoring/domain/notifications'
import type { PaymentProcessor } from '@tutoring/domain/payments'
import { systemClock, type Clock, type Geocoder, type PostcodeParser, type UnitOfWork } from '@tutoring/domain/shared'
import type { IdentityProvider } from '@tutoring/domain/verification'
import { busyCalendarFromConfig, travelFromConfig } from './availability/availability.infrastructure'
import { bookingConfigFromConfig } from './booking-payments/booking-payments.infrastructure'
import { bookingPaymentSyncHandlers } from './booking-payments/payment-sync'
import { appUrl, resolveAppKey, type Config } from './config'
import {
  SecretBox,
  UrlSigner,
  argon2Hasher,
  deriveKey,
  linkBuilder,
  linkReader,
  secretTokens,
} from './crypto'
import { openPGlite, openPostgres, type DatabaseHandle } from './db/connect'
import { readRouting, recentWriters, type ReadRouting } from './db/read-replica'
import { idempotencyStore, type IdempotencyStore } from './db/idempotency.repository'
import { migrateToLatest } from './db/migrate'
import { generatedDemoPassword, seedDemoStart, type DemoAccount } from './db/seed/demo-start'
import { seedReferenceData } from './db/seed/seed-reference-data'
import { createUnitOfWork } from './db/unit-of-work'
import { storageFromConfig, uploadLimitsFromConfig } from './files/files.infrastructure'
import { fileTypeSniffer, purgeUnclaimedUploads, type LocalDiskStorage } from './files/storage'
import { addressDirectoryFromConfig, ukPostcodes } from './geo'
import { createLogger, type Logger } from './logger'
import { mailerFromConfig, type Mailer } from './mail'
import { publicAddressesOnly, type AddressPolicy } from './net'
import { pushGatewayFromConfig } from './notifications/push'
import { devicePushSender } from './notifications/push-delivery'
import { purgePushCallbacks } from './notifications/push-delivery-log.repository'
import { webhooksFromConfig } from './integrations'
import { outboxDelivery } from './outbox/outbox.infrastructure'
import { outboxQueue, type OutboxQueue } from './outbox/outbox.repository'
import { processorFromConfig } from './payments'
import { paymentsSyncHandlers } from './payments/processor-sync'
import { connectRedis, pingRedis, redisReady } from './redis'
import { makeRepositories, makeTransactionRepositories, type Repositories } from './repositories'
import { compactOnlineSearchCounts } from './search/online-counts'
import { subscriptionSyncHandlers } from './subscriptions/subscription-sync'
import { identityProviderFromConfig } from './verification'

/** Everything the HTTP app and the CLI need from the outside world, built from config. */
export type Infrastructure = {
  config: Config
  logger: Logger
  database: DatabaseHandle
  uow: UnitOfWork<Repositories>
  clock: Clock
  hasher: ReturnType<typeof argon2Hasher>
  secrets: typeof secretTokens
  urlSigner: UrlSigner
  secretBox: SecretBox
  links: ReturnType<typeof linkBuilder>
  /** Reads back signed links and booking secrets (web.api's credentials besides a token). */
  linkReader: ReturnType<typeof linkReader>
  processor: PaymentProcessor
  identityProvider: IdentityProvider
  mailer: Mailer
  /** FCM for `ios`/`android`, Web Push for `web`, each when configured, else JSON files under `DATA_DIR/push`. */
  push: PushGateway
  outbox: OutboxQueue
  /** Replays of mutating POSTs (`Idempotency-Key`). */
  idempotency: IdempotencyStore
  redis: Redis | undefined
  baseUrl: string
  /** Postcode to coordinates: `addresses` unless overridden. */
  geocoder: Geocoder
  /** Postcode lookup and address search: postcodes.io when `POSTCODES_API_URL` is set, else the postcodes table. */
  addresses: AddressDirectory
  /** Driving minutes: OSRM when `ROUTING_API_URL` is set, else the straight-line estimate. */
  travel: TravelTimes
  /** Tutors' ICS feeds (public addresses only), cached in Redis or this process. */
  calendar: BusyCalendar
  /** Outbound webhooks: the endpoint URL check and the signed sender, behind the address guard. */
  webhooks: { urls: EndpointUrlCheck; sender: WebhookSender }
  postcodes: PostcodeParser
  /** S3 when `S3_BUCKET` is set, else the local disk under `DATA_DIR/storage`. */
  storage: ObjectStorage
  /** The local disk storage behind `GET /storage/...`; undefined with S3. */
  localDisk: LocalDiskStorage | undefined
  sniffer: ContentSniffer
  ids: IdGenerator
  uploadLimits: UploadLimits
  /** The booking rules' settings, the same for the server, its jobs and the CLI. */
  bookingConfig: BookingConfig & BookingPaymentsConfig
  deliverOutbox(limit?: number): Promise<{ delivered: number; failed: number }>
  /** Removes uploads made without an account that nobody claimed within a day; answers how many. */
  purgeUnclaimedUploads(): Promise<number>
  /** Removes push callbacks older than 30 days; answers how many. */
  purgePushCallbacks(): Promise<number>
  /** Folds the online search's count deltas, one row per subject and weekday; answers the rows folded. */
  compactSearchCounts(): Promise<number>
  /** Which reads go to the replica (`DATABASE_READ_URL`); undefined without one. */
  readRouting: ReadRouting | undefined
  /** Resolves when the database answers a trivial query. */
  pingDatabase(): Promise<void>
  /** Resolves when Redis answers now (rejects at once when it is down); only with `REDIS_URL`. */
  pingRedis(): Promise<void>
  close(): Promise<void>
}

export type InfrastructureOverrides = Partial<
  Pick<
    Infrastructure,
    'database' | 'clock' | 'mailer' | 'push' | 'logger' | 'geocoder' | 'storage' | 'identityProvider' | 'addresses' | 'travel' | 'calendar'
  > & {
    /** A processor of its own, or one made from the configured one (a test wrapping the offline processor). */
    processor: PaymentProcessor | ((configured: PaymentProcessor) => PaymentProcessor)
    /** Which addresses calendar feeds may be fetched from; tests let 127.0.0.1 through. */
    calendarAddressPolicy: AddressPolicy
    /** Which addresses webhooks (and their redirects) may reach; tests let 127.0.0.1 through. */
    webhookAddressPolicy: AddressPolicy
  }
>

export async function createInfrastructure(config: Config, overrides: InfrastructureOverrides = {}): Promise<Infrastructure> {
  const logger = overrides.logger ?? createLogger(config.LOG_LEVEL)
  const clock = overrides.clock ?? systemClock
  const database = overrides.database ?? (await openDatabase(config, logger))
  const appKey = await resolveAppKey(config.APP_KEY, config.DATA_DIR)
  const now = () => clock.now()
  const urlSigner = new UrlSigner(deriveKey(appKey, 'url-signature'), now)
  const secretBox = new SecretBox(deriveKey(appKey, 'secret-box'), now)
  const baseUrl = appUrl(config)
  const configured = () => processorFromConfig(config, database, now, baseUrl)
  const processor =
    typeof overrides.processor === 'function' ? overrides.processor(configured()) : (overrides.processor ?? configured())
  const mailer = overrides.mailer ?? mailerFromConfig(config)
  const push = overrides.push ?? (await pushGatewayFromConfig(config, logger))
  const redis = config.REDIS_URL ? connectRedis(config.REDIS_URL, logger) : undefined
  if (redis) await redisReady(redis, 2_000)
  const outbox = outboxQueue(database.db, now)
  const { storage, localDisk } = storageFromConfig(config, { baseUrl, sign: (p, at) => urlSigner.sign(p, at), now, logger }, overrides.storage)
  const addresses = overrides.addresses ?? addressDirectoryFromConfig(config, database.db, logger)
  return {
    config,
    logger,
    database,
    uow: createUnitOfWork<Repositories>(database.db, {
      outside: (db) => makeRepositories(db, now),
      inside: (trx) => makeTransactionRepositories(trx, now),
    }, { ambient: database.kind === 'pglite' }),
    clock,
    hasher: argon2Hasher(),
    secrets: secretTokens,
    urlSigner,
    secretBox,
    links: linkBuilder(baseUrl, urlSigner, secretBox),
    linkReader: linkReader(urlSigner, secretBox),
    processor,
    identityProvider: overrides.identityProvider ?? identityProviderFromConfig(config),
    mailer,
    push,
    outbox,
    idempotency: idempotencyStore(database.db),
    redis,
    baseUrl,
    geocoder: overrides.geocoder ?? addresses,
    addresses,
    travel: overrides.travel ?? travelFromConfig(config, logger),
    calendar:
      overrides.calendar ??
      busyCalendarFromConfig(config, { redis, logger, now, policy: overrides.calendarAddressPolicy ?? publicAddressesOnly }),
    webhooks: webhooksFromConfig(config, overrides.webhookAddressPolicy ?? publicAddressesOnly),
    postcodes: ukPostcodes,
    storage,
    localDisk,
    sniffer: fileTypeSniffer,
    ids: { uuid: () => randomUUID() },
    uploadLimits: uploadLimitsFromConfig(config),
    bookingConfig: bookingConfigFromConfig(config, baseUrl),
    readRouting: database.replica ? readRouting(database.replica, recentWriters(config.READ_AFTER_WRITE_MS, redis, logger)) : undefined,
    pingDatabase: async () => {
      await sql`select 1`.execute(database.db)
    },
    pingRedis: () => (redis ? pingRedis(redis) : Promise.reject(new Error('REDIS_URL is not set'))),
    deliverOutbox: outboxDelivery(config, {
      queue: outbox,
      mailer,
      push: devicePushSender(database.db, push, { ttlSeconds: config.PUSH_TTL_SECONDS, logger }),
      // Each context's processor syncs by topic, from its room: the outbox only dispatches.
      processorSync: {
        ...paymentsSyncHandlers(database.db, processor),
        ...subscriptionSyncHandlers(database.db, processor),
        ...bookingPaymentSyncHandlers(database.db, processor),
      },
      logger,
      now,
    }),
    purgeUnclaimedUploads: () => purgeUnclaimedUploads(database.db, storage, now()),
    purgePushCallbacks: () => purgePushCallbacks(database.db, now()),
    compactSearchCounts: () => compactOnlineSearchCounts(database.db),
    async close() {
      mailer.close()
      redis?.disconnect()
      await database.close()
    },
  }
}

/** The server named by DATABASE_URL, else the embedded database under DATA_DIR. */
export async function openDatabase(config: Config, logger?: Logger): Promise<DatabaseHandle> {
  if (!config.DATABASE_URL) return openPGlite(path.join(config.DATA_DIR, 'pglite'))
  const replica = config.DATABASE_READ_URL
    ? { url: config.DATABASE_READ_URL, maxLagMs: config.READ_REPLICA_MAX_LAG_MS, logger: logger ?? createLogger(config.LOG_LEVEL) }
    : undefined
  return openPostgres(config.DATABASE_URL, { replica })
}

/** Migrates and seeds: what `start` does by itself; `onStep` hears of each step as it begins. */
export async function prepareDatabase(database: DatabaseHandle, onStep?: (step: 'migrate' | 'seed') => void): Promise<string[]> {
  onStep?.('migrate')
  const applied = await migrateToLatest(database.db)
  onStep?.('seed')
  await seedReferenceData(database.db)
  return applied
}

/** Seeds the embedded start's demo; answers the accounts to print, with `DEMO_PASSWORD` or a generated password. */
export function seedDemo(infra: Infrastructure): Promise<DemoAccount[]> {
  return seedDemoStart(infra.database.db, infra, infra.config.DEMO_PASSWORD ?? generatedDemoPassword())
}
