import { sql, type Kysely } from 'kysely'
import type { Database } from '../database'
import {
  CANCELLATION_POLICIES,
  COUNTRY_CODES,
  EXAM_BOARDS,
  LANGUAGES,
  LESSON_LOCATIONS,
  LESSON_PRICE_SETTINGS,
  SERVICE_NOTICE,
  SUBJECTS,
  SUBJECT_LEVELS,
  SUBSCRIPTION_PLAN,
} from './reference-data'

/** Inserts what is missing and leaves what an operator changed alone; safe to repeat. */
export async function seedReferenceData(db: Kysely<Database>, now: Date = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // Instances started together seed together: one at a time, or both would add the default policies.
    await sql`select pg_advisory_xact_lock(727275)`.execute(trx)
    const names = new Intl.DisplayNames(['en'], { type: 'region' })
    await trx
      .insertInto('countries')
      .values(COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })))
      .onConflict((oc) => oc.column('code').doNothing())
      .execute()

    await trx
      .insertInto('subject_levels')
      .values(SUBJECT_LEVELS.map((title, position) => ({ title, position })))
      .onConflict((oc) => oc.column('title').doNothing())
      .execute()
    await trx
      .insertInto('subjects')
      .values(SUBJECTS.map(({ title, group }) => ({ title, group })))
      .onConflict((oc) => oc.column('title').doNothing())
      .execute()
    const subjects = await trx.selectFrom('subjects').select(['id', 'title']).execute()
    const levels = await trx.selectFrom('subject_levels').select(['id', 'title']).execute()
    const subjectId = new Map(subjects.map((s) => [s.title, s.id]))
    const levelId = new Map(levels.map((l) => [l.title, l.id]))
    const links = SUBJECTS.flatMap((s) =>
      s.levels.map((level) => ({ subject_id: subjectId.get(s.title)!, subject_level_id: levelId.get(level)! })),
    )
    await trx.insertInto('subject_subject_levels').values(links).onConflict((oc) => oc.doNothing()).execute()

    await trx
      .insertInto('exam_boards')
      .values(EXAM_BOARDS.map((title) => ({ title })))
      .onConflict((oc) => oc.column('title').doNothing())
      .execute()
    await trx.insertInto('languages').values([...LANGUAGES]).onConflict((oc) => oc.column('code').doNothing()).execute()
    await trx
      .insertInto('lesson_locations')
      .values(LESSON_LOCATIONS.map((l) => ({ ...l })))
      .onConflict((oc) => oc.column('id').doNothing())
      .execute()

    const hasPolicies = await trx.selectFrom('cancellation_policies').select('id').limit(1).executeTakeFirst()
    if (!hasPolicies) {
      await trx.insertInto('cancellation_policies').values(CANCELLATION_POLICIES.map((p) => ({ ...p }))).execute()
    }
    await trx
      .insertInto('lesson_price_settings')
      .values({ id: 1, ...LESSON_PRICE_SETTINGS })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute()
    await trx
      .insertInto('service_notices')
      .values({ ...SERVICE_NOTICE, starts_at: now })
      .onConflict((oc) => oc.column('title').doNothing())
      .execute()
    await trx
      .insertInto('subscription_plans')
      .values({ ...SUBSCRIPTION_PLAN })
      .onConflict((oc) => oc.column('price_id').doNothing())
      .execute()
  })
}
