import { randomUUID } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import { DAY_NAMES } from '@tutoring/domain/schedule'
import { ROLE_IDS } from '@tutoring/domain/shared'
import { compactOnlineSearchCounts } from '../../search/online-counts'
import type { Database } from '../database'
import type { DemoCatalog, DemoTutor } from '@tutoring/testkit/demo'

/** The reference data ids demo tutors are drawn from. */
export async function demoCatalog(db: Kysely<Database>): Promise<DemoCatalog> {
  const [subjects, links, boards, languages] = await Promise.all([
    db.selectFrom('subjects').select('id').orderBy('id').execute(),
    db.selectFrom('subject_subject_levels').select(['subject_id', 'subject_level_id']).orderBy('subject_level_id').execute(),
    db.selectFrom('exam_boards').select('id').orderBy('id').execute(),
    db.selectFrom('languages').select('id').orderBy('id').execute(),
  ])
  return {
    subjects: subjects.map((s) => ({ id: s.id, levelIds: links.filter((l) => l.subject_id === s.id).map((l) => l.subject_level_id) })),
    examBoardIds: boards.map((b) => b.id),
    languageIds: languages.map((l) => l.id),
  }
}

const CHUNK = 1000
/** Rows per INSERT statement: under the protocol's 65,535 parameters for the widest table. */
const ROWS_PER_STATEMENT = 5000

/** Chunks written at once: the server's second core takes one while the first takes the other (PGlite runs them in turn). */
const WRITERS = 2

/**
 * Writes demo tutors straight into the tables, a chunk of 1,000 per transaction, two
 * transactions at a time. Each chunk defers `tutor_search`'s upkeep (search/sql/bulk-deferral.sql)
 * and refreshes its own tutors once at the end, set-based, instead of once
 * per table written. `tag` keeps emails and usernames of repeated loads apart. Answers the new
 * user ids in the order given.
 */
export async function loadDemoTutors(
  db: Kysely<Database>,
  tutors: Iterable<DemoTutor>,
  options: { tag: string; passwordHash: string; onProgress?: (loaded: number) => void },
): Promise<number[]> {
  const source = tutors[Symbol.iterator]()
  const chunks: number[][] = []
  let taken = 0
  let loaded = 0
  let analyzedAt = 0
  // Synchronous, so two writers never take the same tutors; the chunk's index keeps the order.
  const takeChunk = (): { index: number; offset: number; tutors: DemoTutor[] } | undefined => {
    const chunk: DemoTutor[] = []
    for (let item = source.next(); !item.done; item = source.next()) {
      chunk.push(item.value)
      if (chunk.length === CHUNK) break
    }
    if (chunk.length === 0) return undefined
    const offset = taken
    taken += chunk.length
    return { index: offset / CHUNK, offset, tutors: chunk }
  }
  options.onProgress?.(0)
  const writer = async () => {
    for (let chunk = takeChunk(); chunk; chunk = takeChunk()) {
      chunks[chunk.index] = await loadChunkDeferred(db, chunk.tutors, chunk.offset, options)
      loaded += chunk.tutors.length
      // Fresh statistics of the tables written each time they double, so the plans keep
      // using indexes as they grow (PGlite has no autovacuum to do it).
      if (loaded >= 2 * analyzedAt) {
        analyzedAt = loaded
        await analyzeWritten(db)
      }
      options.onProgress?.(loaded)
    }
  }
  await Promise.all(Array.from({ length: WRITERS }, writer))
  // Each chunk left a count delta per subject and weekday it wrote: one row per key again.
  await compactOnlineSearchCounts(db)
  // Vacuumed too: the search index's pending entries merged and the pages marked all-visible,
  // as autovacuum would leave them, so plans and index-only scans are those of a settled table.
  await sql.raw(`vacuum analyze ${WRITTEN.join(', ')}`).execute(db)
  return chunks.flat()
}

function loadChunkDeferred(db: Kysely<Database>, chunk: readonly DemoTutor[], offset: number, options: { tag: string; passwordHash: string }): Promise<number[]> {
  return db.transaction().execute(async (trx) => {
    await sql`select set_config('tutoring.search_refresh', 'deferred', true)`.execute(trx)
    const ids = await loadChunk(trx, chunk, offset, options)
    const written = `{${ids.join(',')}}`
    await sql`select tutor_search_refresh(${written}::bigint[])`.execute(trx)
    // Deferred too: the online rows once, from the refreshed rows (search/sql/online-rows.sql).
    await sql`select tutor_search_online_refresh(${written}::bigint[])`.execute(trx)
    // And the in-person rows (search/sql/in-person-rows.sql).
    await sql`select tutor_search_in_person_refresh(${written}::bigint[])`.execute(trx)
    return ids
  })
}

const WRITTEN = [
  'users', 'files', 'profiles', 'addresses', 'mobile_numbers', 'personal_details', 'user_languages', 'verifications', 'subscriptions', 'tutor_ratings',
  'locations', 'holidays', 'teaches', 'teach_subject_levels', 'teach_exam_boards', 'day_availabilities', 'day_availability_slots', 'tutor_search',
  // Written by the search tables' triggers: vacuumed so the online and in-person scans are index-only, as they would be once settled.
  'tutor_search_online', 'tutor_search_in_person', 'tutor_search_online_counts', 'tutor_search_online_away',
]

const analyzeWritten = (db: Kysely<Database>) => sql.raw(`analyze ${WRITTEN.join(', ')}`).execute(db)

/** `write` once per `ROWS_PER_STATEMENT` rows, in order: one statement each. */
async function inBatches<T>(rows: readonly T[], write: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) await write(rows.slice(i, i + ROWS_PER_STATEMENT))
}

async function loadChunk(db: Kysely<Database>, tutors: readonly DemoTutor[], offset: number, options: { tag: string; passwordHash: string }): Promise<number[]> {
  const users = await db
    .insertInto('users')
    .values(
      tutors.map((t, i) => {
        const handle = `demo-${options.tag}-${offset + i + 1}`
        return {
          email: `${handle}@demo.example.com`,
          password_hash: options.passwordHash,
          username: handle,
          firstname: t.firstname,
          lastname: t.lastname,
          role_id: ROLE_IDS.tutor,
          country: 'GB',
          email_verified_at: new Date(),
          deleted_at: null,
        }
      }),
    )
    .returning('id')
    .execute()
  const ids = users.map((u) => Number(u.id))
  const each = <T>(make: (t: DemoTutor, id: number) => T[]): T[] => tutors.flatMap((t, i) => make(t, ids[i]!))

  const files = each((t, id) => [
    ...(t.hasPicture ? [{ owner: id, kind: 'picture' as const, id: randomUUID() }] : []),
    ...(t.hasVideo ? [{ owner: id, kind: 'video' as const, id: randomUUID() }] : []),
  ])
  if (files.length > 0) {
    await db
      .insertInto('files')
      .values(
        files.map((f) => ({
          id: f.id,
          owner_id: f.owner,
          purpose: f.kind === 'picture' ? 'profile_image' : 'profile_video',
          name: f.kind === 'picture' ? 'demo.png' : 'demo.mp4',
          mime_type: f.kind === 'picture' ? 'image/png' : 'video/mp4',
          size: 0,
          storage_key: `demo/${f.id}`,
          deleted_at: null,
        })),
      )
      .execute()
  }
  const fileIndex = new Map(files.map((f) => [`${f.owner}:${f.kind}`, f.id]))
  await db
    .insertInto('profiles')
    .values(
      each((t, id) => [
        {
          user_id: id,
          bio: t.bio,
          tutoring_experience_months: t.tutoringExperienceMonths,
          is_visible: t.isVisible,
          profile_picture_file_id: fileIndex.get(`${id}:picture`) ?? null,
          profile_video_file_id: fileIndex.get(`${id}:video`) ?? null,
        },
      ]),
    )
    .execute()

  const addresses = each((t, id) => (t.address ? [{ user_id: id, ...t.address }] : []))
  await inBatches(addresses, (batch) => db.insertInto('addresses').values(batch).execute())
  const mobiles = each((t, id) => (t.hasMobile ? [{ user_id: id, number: `+447700${String(900000 + (id % 100000)).padStart(6, '0')}` }] : []))
  await inBatches(mobiles, (batch) => db.insertInto('mobile_numbers').values(batch).execute())
  const details = each((t, id) => (t.gender ? [{ user_id: id, gender: t.gender }] : []))
  await inBatches(details, (batch) => db.insertInto('personal_details').values(batch).execute())
  const languages = each((t, id) => t.languageIds.map((language_id) => ({ user_id: id, language_id })))
  await inBatches(languages, (batch) => db.insertInto('user_languages').values(batch).execute())

  const verifications = each((t, id) =>
    (['identity', 'dbs', 'qualification'] as const).flatMap((kind) => {
      const status = t.verifications[kind]
      if (status === 'NONE') return []
      return [{ user_id: id, kind, status, reference: `demo-${options.tag}-${kind}-${id}`, redirect_url: null, document_file_id: null, certificate_number: null, issue_date: null, reviewed_by: null }]
    }),
  )
  await inBatches(verifications, (batch) => db.insertInto('verifications').values(batch).execute())

  const subscribed = each((t, id) => (t.subscriptionStatus === null ? [] : [{ id, status: t.subscriptionStatus }]))
  if (subscribed.length > 0) {
    const plan = await db.selectFrom('subscription_plans').select('id').where('active', '=', true).orderBy('id').executeTakeFirst()
    if (!plan) throw new Error('demo tutors need a subscription plan: seed the reference data first')
    await db
      .insertInto('subscriptions')
      .values(
        subscribed.map(({ id, status }) => ({
          user_id: id,
          plan_id: plan.id,
          processor_subscription_id: null,
          status,
          trial_ends_at: null,
          current_period_end: null,
          deleted_at: null,
        })),
      )
      .execute()
  }

  const ratings = each((t, id) => (t.rating ? [{ tutor_id: id, review_count: t.rating.reviewCount, overall_rating: t.rating.overallRating }] : []))
  await inBatches(ratings, (batch) => db.insertInto('tutor_ratings').values(batch).execute())

  const locations = each((t, id) =>
    t.location
      ? [{ tutor_id: id, postcode: t.location.postcode, outcode: t.location.outcode, lat: t.location.lat, lng: t.location.lng, travel_distance_miles: t.location.travelDistanceMiles }]
      : [],
  )
  await inBatches(locations, (batch) => db.insertInto('locations').values(batch).execute())
  const holidays = each((t, id) => t.holidays.map((h) => ({ tutor_id: id, start_date: h.startDate, end_date: h.endDate })))
  await inBatches(holidays, (batch) => db.insertInto('holidays').values(batch).execute())

  const teaches = each((t, id) => t.teaches.map((teach) => ({ id, teach })))
  if (teaches.length > 0) {
    const rows = await db
      .insertInto('teaches')
      .values(teaches.map(({ id, teach }) => ({ tutor_id: id, subject_id: teach.subjectId, hourly_rate_pence: teach.hourlyRatePence, enabled: teach.enabled, deleted_at: null })))
      .returning('id')
      .execute()
    const levels = rows.flatMap((row, i) => teaches[i]!.teach.levelIds.map((subject_level_id) => ({ teach_id: Number(row.id), subject_level_id })))
    await inBatches(levels, (batch) => db.insertInto('teach_subject_levels').values(batch).execute())
    const boards = rows.flatMap((row, i) => teaches[i]!.teach.examBoardIds.map((exam_board_id) => ({ teach_id: Number(row.id), exam_board_id })))
    await inBatches(boards, (batch) => db.insertInto('teach_exam_boards').values(batch).execute())
  }

  const entries = each((t, id) => t.schedule.map((entry) => ({ id, entry })))
  if (entries.length > 0) {
    const rows = await db
      .insertInto('day_availabilities')
      .values(
        entries.map(({ id, entry }) => ({
          tutor_id: id,
          day: DAY_NAMES.indexOf(entry.day),
          lesson_types: [...entry.lessonTypes],
          buffer_minutes: entry.bufferMinutes,
          subject_id: null,
          subject_level_id: null,
          exam_board_id: null,
        })),
      )
      .returning('id')
      .execute()
    const slots = rows.flatMap((row, i) => {
      const { id, entry } = entries[i]!
      const day = DAY_NAMES.indexOf(entry.day)
      return entry.slots.map((slot) => ({ day_availability_id: Number(row.id), tutor_id: id, day, starts_at: slot.from, ends_at: slot.to }))
    })
    await inBatches(slots, (batch) => db.insertInto('day_availability_slots').values(batch).execute())
  }
  return ids
}
