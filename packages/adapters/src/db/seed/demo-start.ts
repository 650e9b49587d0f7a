import { randomBytes } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import type { Kysely } from 'kysely'
import { createUser, type RegistrationDeps } from '@tutoring/domain/registration'
import { londonToday } from '@tutoring/domain/shared'
import type { Config } from '../../config'
import type { Database } from '../database'
import { demoTutors } from './demo-marketplace'
import { demoCatalog, loadDemoTutors } from './load-demo-tutors'

/** The demo's accounts, in the order the start prints them. */
export type DemoAccount = { role: 'student' | 'tutor' | 'staff'; email: string; password: string }

/** Tutors of the embedded start's demo: a page or two of search over the UK, loaded in well under a second. */
export const DEMO_START_TUTORS = 40

/**
 * CONTRACT §16: the demo is for the embedded start on an empty (or absent) DATA_DIR only, and
 * `SEED_DEMO=false` declines it; a server database gets one only from `cli seed --demo`.
 * Asked before the database opens, since opening it fills the folder.
 */
export async function wantsDemo(config: Pick<Config, 'DATABASE_URL' | 'SEED_DEMO' | 'DATA_DIR'>): Promise<boolean> {
  if (config.DATABASE_URL || config.SEED_DEMO === 'false') return false
  const entries = await readdir(config.DATA_DIR).catch(() => [])
  return entries.length === 0
}

/** A password to print when `DEMO_PASSWORD` gives none: 16 characters, nobody else knows it. */
export const generatedDemoPassword = (): string => randomBytes(12).toString('base64url')

/**
 * The embedded start's demo (CONTRACT §16 "Operations"): `DEMO_START_TUTORS` searchable,
 * bookable tutors from the seed's demo generator, the first of them `tutor@demo.test`, and a
 * student and a staff user made as `user:create` makes them; all share `password`.
 */
export async function seedDemoStart(
  db: Kysely<Database>,
  deps: Pick<RegistrationDeps, 'uow' | 'hasher' | 'secrets' | 'clock'>,
  password: string,
): Promise<DemoAccount[]> {
  const now = deps.clock.now()
  const tutors = demoTutors({ seed: 2026, tutors: DEMO_START_TUTORS, today: londonToday(now), catalog: await demoCatalog(db), searchableOnly: true })
  const [first] = await loadDemoTutors(db, tutors, { tag: 'start', passwordHash: await deps.hasher.hash(password) })
  await db.updateTable('users').set({ email: 'tutor@demo.test' }).where('id', '=', first!).execute()
  const person = async (role: 'student' | 'internal', email: string, firstname: string) => {
    const created = await createUser(deps, { email, password, role, firstname, lastname: 'Demo' })
    if (created.isErr()) throw new Error(`the demo ${role} could not be made: ${JSON.stringify(created.error.errors)}`)
  }
  await person('student', 'student@demo.test', 'Sam')
  await person('internal', 'staff@demo.test', 'Stella')
  return [
    { role: 'student', email: 'student@demo.test', password },
    { role: 'tutor', email: 'tutor@demo.test', password },
    { role: 'staff', email: 'staff@demo.test', password },
  ]
}
