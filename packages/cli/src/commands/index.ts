import type { Command } from '../command'
import { migrate, migrateStatus } from './migrate'
import { lessonsExpireReschedules, lessonsRemind, paymentsCaptureDue } from './due-work'
import { outboxFailed, outboxRetry } from './outbox-failed'
import { outboxWork } from './outbox-work'
import { postcodesImport } from './postcodes-import'
import { purgeExpired } from './purge'
import { searchCompactCounts } from './search-counts'
import { seed } from './seed'
import { userCreate } from './user-create'
import { verificationPass } from './verification-pass'

/**
 * Every command of CONTRACT.md §11, in the order `help` lists them. Each loads what it uses
 * when it runs, so importing this list costs nothing.
 */
export const COMMANDS: readonly Command[] = [
  migrate,
  migrateStatus,
  seed,
  userCreate,
  verificationPass,
  outboxWork,
  outboxFailed,
  outboxRetry,
  lessonsExpireReschedules,
  lessonsRemind,
  paymentsCaptureDue,
  purgeExpired,
  searchCompactCounts,
  postcodesImport,
]
