import { demoCatalog, loadDemoTutors, type DemoCatalog, type DemoTutor } from '@tutoring/adapters'
import { aSearchableTutor } from '@tutoring/testkit'
import type { TestContext } from './harness'

let loads = 0

/**
 * Tutors written straight into the tables (as the demo seed does); the search table's
 * triggers pick them up. Answers their user ids in order.
 */
export async function addTutors(t: TestContext, tutors: readonly DemoTutor[]): Promise<number[]> {
  loads++
  return loadDemoTutors(t.db, tutors, { tag: `t${loads}x${Date.now().toString(36)}`, passwordHash: 'not-a-login' })
}

/** A tutor who passes every rule on any date of the window, online or around Westminster. */
export async function addSearchableTutor(t: TestContext, catalog: DemoCatalog, overrides: Partial<DemoTutor> = {}): Promise<number> {
  const [id] = await addTutors(t, [aSearchableTutor(catalog, overrides)])
  return id!
}

/** Every tutor gone (cascading to their records), so a test sees only its own. */
export async function removeAllTutors(t: TestContext): Promise<void> {
  await t.db.deleteFrom('users').where('role_id', '=', 3).execute()
}

export const catalogOf = (t: TestContext): Promise<DemoCatalog> => demoCatalog(t.db)
