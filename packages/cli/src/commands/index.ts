import type { Command } from '../command'
import { migrate } from './migrate'
import { notYetAvailable } from './not-yet-available'
import { outboxWork } from './outbox-work'
import { postcodesImport } from './postcodes-import'
import { seed } from './seed'
import { userCreate } from './user-create'

/** Every command of CONTRACT.md §11, in the order `help` lists them. */
export const COMMANDS: readonly Command[] = [
  migrate,
  seed,
  userCreate,
  outboxWork,
  postcodesImport,
  notYetAvailable('lessons:expire-reschedules', 'cancel lessons whose reschedule proposal expired'),
  notYetAvailable('payments:capture-due', 'capture the payments of lessons that are due'),
]
