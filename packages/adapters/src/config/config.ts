import { isIP } from 'node:net'
import path from 'node:path'
import { z } from 'zod'
import { isUsableAppKey } from './app-key'

const csv = z
  .string()
  .optional()
  .transform((v) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : []))

/**
 * Each variable says what it expects (`expects`), so a bad value is refused with one line
 * naming the variable and the form it takes.
 */
const expects = <S extends z.ZodType>(schema: S, text: string): S => schema.meta({ expects: text })

const urlWith = (protocols: readonly string[]) => (value: string) => {
  try {
    return protocols.includes(new URL(value).protocol)
  } catch {
    return false
  }
}
const optionalUrl = expects(z.string().refine(urlWith(['http:', 'https:'])).optional(), 'an http:// or https:// URL')
const int = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  expects(z.coerce.number().int().min(min).max(max).default(fallback), `a whole number from ${min} to ${max}`)

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal'])
const isProxyEntry = (entry: string): boolean => {
  if (PROXY_NAMES.has(entry)) return true
  const [address = '', prefix, ...rest] = entry.split('/')
  const family = isIP(address)
  if (family === 0 || rest.length > 0) return false
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128))
}

/** CONTRACT.md §12: every variable optional for the embedded default. */
const configSchema = z.object({
  PORT: int(3000, 0, 65535),
  APP_URL: optionalUrl,
  DATABASE_URL: expects(z.string().refine(urlWith(['postgres:', 'postgresql:'])).optional(), 'a postgres:// or postgresql:// URL'),
  /** A streaming replica of DATABASE_URL for search, availability and reference reads (CONTRACT §16). */
  DATABASE_READ_URL: expects(z.string().refine(urlWith(['postgres:', 'postgresql:'])).optional(), 'a postgres:// or postgresql:// URL'),
  /** A caller's reads this long after their own write go to the primary, so they see it. */
  READ_AFTER_WRITE_MS: int(5_000, 0, 3_600_000),
  /** Reads go to the primary while the replica is further behind than this. */
  READ_REPLICA_MAX_LAG_MS: int(5_000, 0, 3_600_000),
  DATA_DIR: z.string().default('./.data'),
  REDIS_URL: expects(z.string().refine(urlWith(['redis:', 'rediss:'])).optional(), 'a redis:// or rediss:// URL'),
  APP_KEY: expects(z.string().refine(isUsableAppKey).optional(), 'at least 32 bytes, best as base64:<32 random bytes in base64>'),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_SUBSCRIPTION_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_API_BASE: optionalUrl,
  /** Each call to the processor; the SDK then retries (5xx, timeouts) with the same idempotency key. */
  STRIPE_TIMEOUT_MS: int(15_000, 100, 120_000),
  STRIPE_MAX_NETWORK_RETRIES: int(2, 0, 10),
  VERIFICATION_WEBHOOK_TOKEN: z.string().optional(),
  /** Identity provider (Onfido-style API, see verification/onfido-identity-provider.ts); offline without a token. */
  IDENTITY_PROVIDER_URL: optionalUrl,
  IDENTITY_PROVIDER_TOKEN: z.string().optional(),
  IDENTITY_PROVIDER_WORKFLOW_ID: z.string().optional(),
  IDENTITY_PROVIDER_REDIRECT_URL: optionalUrl,
  IDENTITY_PROVIDER_TIMEOUT_MS: int(10_000, 100, 120_000),
  S3_ENDPOINT: optionalUrl,
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('eu-west-2'),
  /** Upload limits (CONTRACT §7): images and PDFs 10 MiB, videos 200 MiB. */
  UPLOAD_MAX_IMAGE_BYTES: int(10 * 1024 * 1024, 1),
  UPLOAD_MAX_VIDEO_BYTES: int(200 * 1024 * 1024, 1),
  SMTP_URL: expects(z.string().refine(urlWith(['smtp:', 'smtps:'])).optional(), 'an smtp:// or smtps:// URL'),
  MAIL_FROM: z.string().default('Tutoring Marketplace <no-reply@tutoring.local>'),
  THROTTLE_PER_MINUTE: int(300, 1),
  AUTH_THROTTLE_PER_MINUTE: int(10, 1),
  TRUSTED_PROXIES: expects(
    z.string().refine((v) => v.split(',').every((entry) => isProxyEntry(entry.trim()))).default('loopback'),
    'comma-separated addresses, CIDRs or loopback, linklocal, uniquelocal',
  ),
  BOOKING_HOLD_MINUTES: int(15, 1),
  /** Minutes before a lesson's start at which both sides are reminded; empty (`LESSON_REMINDERS=none`) for no reminders. */
  LESSON_REMINDERS: expects(
    z
      .string()
      .default('1440,60')
      .refine((v) => v === 'none' || v.split(',').every((part) => /^\s*\d{1,5}\s*$/.test(part) && Number(part) >= 1 && Number(part) <= 40_320))
      .transform((v) => (v === 'none' ? [] : [...new Set(v.split(',').map(Number))])),
    'none or comma-separated whole numbers of minutes from 1 to 40320, like 1440,60',
  ),
  CORS_TRUSTED_ORIGINS: csv,
  CORS_WHITELIST: csv,
  SERVICE_FEE_PERCENT: expects(z.coerce.number().min(0).max(100).default(10), 'a number from 0 to 100'),
  // Online lessons get a room of their own: this prefix and a fresh UUID.
  PAYMENT_ACTION_URL: optionalUrl,
  MEETING_BASE_URL: expects(z.string().refine(urlWith(['http:', 'https:'])).default('https://meet.jit.si/tutoring-'), 'an http:// or https:// URL'),
  INTERNAL_MAILBOX: expects(z.string().email().default('internal@tutoring.local'), 'an email address'),
  /** Postcode geocoding and address search (postcodes.io-compatible); absent: the `postcodes` table. */
  POSTCODES_API_URL: optionalUrl,
  POSTCODES_API_TIMEOUT_MS: int(3_000, 100, 60_000),
  /** Driving times (OSRM-compatible `table` service); absent: straight line x 1.3 at 20 mph. */
  ROUTING_API_URL: optionalUrl,
  ROUTING_API_TIMEOUT_MS: int(3_000, 100, 60_000),
  /** Tutors' ICS feeds: `off` stores them but reads none (air-gapped installs). */
  CALENDAR_FEEDS: expects(z.enum(['on', 'off']).default('on'), 'on or off'),
  CALENDAR_FETCH_TIMEOUT_MS: int(5_000, 100, 60_000),
  CALENDAR_MAX_BYTES: int(2 * 1024 * 1024, 1024, 50 * 1024 * 1024),
  CALENDAR_CACHE_SECONDS: int(300, 0, 86_400),
  /** Push to `ios`/`android` through FCM HTTP v1 with a Google service-account key (JSON text or a file). */
  FCM_SERVICE_ACCOUNT_JSON: z.string().optional(),
  FCM_SERVICE_ACCOUNT_FILE: z.string().optional(),
  /** The Firebase project; the service account's `project_id` when absent. */
  FCM_PROJECT_ID: z.string().optional(),
  /** FCM's API base (a local stand-in in tests). */
  FCM_API_URL: optionalUrl,
  /** Web Push (VAPID) keys as `web-push generate-vapid-keys` prints them, and the contact sent with them. */
  VAPID_PUBLIC_KEY: expects(z.string().regex(/^[A-Za-z0-9_-]{87}$/).optional(), 'a base64url P-256 public key'),
  VAPID_PRIVATE_KEY: expects(z.string().regex(/^[A-Za-z0-9_-]{43}$/).optional(), 'a base64url P-256 private key'),
  VAPID_SUBJECT: expects(z.string().regex(/^(mailto:|https:\/\/)/).optional(), 'a mailto: or https: URL'),
  PUSH_TIMEOUT_MS: int(10_000, 100, 120_000),
  /** How long a provider keeps a push for an unreachable device (Web Push and FCM both stop at 28 days). */
  PUSH_TTL_SECONDS: int(86_400, 0, 2_419_200),
  LOG_LEVEL: expects(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'), 'one of fatal, error, warn, info, debug, trace, silent'),
  /** `off` leaves outbox delivery and periodic jobs to `pnpm cli` (or another instance). */
  BACKGROUND_JOBS: expects(z.enum(['on', 'off']).default('on'), 'on or off'),
  /** Every periodic job at this one interval instead of its own (tests and demos that cannot wait 30 s for an expiry). */
  BACKGROUND_JOBS_INTERVAL_MS: expects(z.coerce.number().int().min(50).max(3_600_000).optional(), 'a whole number of milliseconds from 50 to 3600000'),
  /** A claimed outbox message is retried by another worker after this long without an answer (a crashed instance's, too). */
  OUTBOX_LEASE_SECONDS: int(120, 1, 86_400),
  /** On SIGTERM: how long requests and jobs under way may take to finish before they are cut. */
  SHUTDOWN_TIMEOUT_MS: int(10_000, 0, 600_000),
  /** The embedded start on an empty DATA_DIR seeds a demo (tutors and three accounts) unless this is `false`. */
  SEED_DEMO: expects(z.enum(['true', 'false']).default('true'), 'true or false'),
  /** The demo accounts' password; absent: a generated one, printed at start. */
  DEMO_PASSWORD: expects(z.string().min(8).max(128).optional(), '8 to 128 characters'),
})

export type Config = z.infer<typeof configSchema>

/** Every variable the service reads, for checks that the documentation names them all. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(configSchema.shape)

/** One or more variables the service cannot run with; `problems` holds one line for each. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration: ${problems.join('; ')}`)
  }
}

// Values that may carry credentials are never repeated back.
const SECRET = /URL|KEY|SECRET|TOKEN|PASSWORD/

function problemOf(name: string, value: string | undefined, fallback: string): string {
  const field = configSchema.shape[name as keyof typeof configSchema.shape]
  const expected = (field?.meta() as { expects?: string } | undefined)?.expects
  const shown = value !== undefined && !SECRET.test(name) && value.length <= 64 ? ` (got ${JSON.stringify(value)})` : ''
  return expected ? `${name} must be ${expected}${shown}` : `${name}: ${fallback}${shown}`
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''))
  const parsed = configSchema.safeParse(cleaned)
  if (!parsed.success) {
    const byName = new Map<string, string>()
    for (const issue of parsed.error.issues) {
      const name = issue.path.join('.')
      if (!byName.has(name)) byName.set(name, problemOf(name, cleaned[name], issue.message))
    }
    throw new ConfigError([...byName.values()])
  }
  if (parsed.data.DATABASE_READ_URL && !parsed.data.DATABASE_URL) {
    throw new ConfigError(['DATABASE_READ_URL needs DATABASE_URL: a replica of the embedded database cannot exist'])
  }
  // Relative to where the command was typed (pnpm runs scripts inside the package folder),
  // so `pnpm start` and `pnpm cli` at the root share one embedded database.
  return { ...parsed.data, DATA_DIR: path.resolve(env.INIT_CWD ?? process.cwd(), parsed.data.DATA_DIR) }
}

export const appUrl = (config: Config): string => (config.APP_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '')
