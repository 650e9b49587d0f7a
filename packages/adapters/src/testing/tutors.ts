import type { Kysely } from 'kysely'
import { DAY_NAMES } from '@tutoring/domain/schedule'
import { LESSON_TYPES } from '@tutoring/domain/shared'
import type { Database } from '../db/database'
import type { DemoCatalog, DemoTutor } from '@tutoring/testkit/demo'
import { demoCatalog, loadDemoTutors } from '../db/seed/load-demo-tutors'

/** Anything holding a test database: a handle, or an HTTP test context. */
type OnDatabase = { db: Kysely<Database> }

let loads = 0

/** One tutor who passes every rule on any date within the window, online or in London. */
export const aSearchableTutor = (catalog: DemoCatalog, overrides: Partial<DemoTutor> = {}): DemoTutor => {
  const subject = catalog.subjects.find((s) => s.levelIds.length > 0)
  if (!subject) throw new Error('the catalog has no subject with levels')
  return {
    firstname: 'Ada',
    lastname: 'Lovelace',
    gender: 'female',
    bio: 'Maths, patiently.',
    hasPicture: true,
    hasVideo: true,
    hasMobile: true,
    address: { line1: '12 Analytical Street', city: 'London', postcode: 'SW1A 1AA' },
    isVisible: true,
    tutoringExperienceMonths: 38,
    verifications: { identity: 'PASS', dbs: 'PASS', qualification: 'PASS' },
    subscriptionStatus: 'trialing',
    languageIds: [],
    location: { postcode: 'SW1A 1AA', outcode: 'SW1A', lat: 51.501, lng: -0.1416, travelDistanceMiles: 10 },
    teaches: [{ subjectId: subject.id, levelIds: [subject.levelIds[0]!], examBoardIds: [], hourlyRatePence: 3000, enabled: true }],
    schedule: DAY_NAMES.map((day) => ({ day, slots: [{ from: '09:00', to: '17:00' }], lessonTypes: [...LESSON_TYPES], bufferMinutes: 0 })),
    holidays: [],
    rating: null,
    ...overrides,
  }
}

/**
 * Tutors written straight into the tables (as the demo seed does); the search table's
 * triggers pick them up. Answers their user ids in order.
 */
export async function addTutors(on: OnDatabase, tutors: readonly DemoTutor[]): Promise<number[]> {
  loads++
  return loadDemoTutors(on.db, tutors, { tag: `t${loads}x${Date.now().toString(36)}`, passwordHash: 'not-a-login' })
}

/** A tutor who passes every rule on any date of the window, online or around Westminster. */
export async function addSearchableTutor(on: OnDatabase, catalog: DemoCatalog, overrides: Partial<DemoTutor> = {}): Promise<number> {
  const [id] = await addTutors(on, [aSearchableTutor(catalog, overrides)])
  return id!
}

/** Every tutor gone (cascading to their records), so a test sees only its own. */
export async function removeAllTutors(on: OnDatabase): Promise<void> {
  await on.db.deleteFrom('users').where('role_id', '=', 3).execute()
}

export const catalogOf = (on: OnDatabase): Promise<DemoCatalog> => demoCatalog(on.db)
