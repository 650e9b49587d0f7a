import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { sql } from 'kysely'
import { DAY_NAMES } from '@tutoring/domain/schedule'
import type { DemoCatalog, DemoTutor } from '@tutoring/testkit/demo'
import type { DatabaseHandle } from '../db/connect'
import { demoCatalog, loadDemoTutors } from '../db/seed/load-demo-tutors'
import { aSearchableTutor, createTestDatabase, testDatabaseKinds } from '../testing'
import { compactOnlineSearchCounts } from './online-counts'
import { tutorSearchRepository } from './tutor-search.repository'

const TODAY = '2026-12-01'
/** Dates the totals are asked for: the holidays below start and end among them. */
const DATES = ['2026-12-01', '2026-12-03', '2026-12-06', '2026-12-10']

/** One write a tutor (or the bulk path, or a compaction) makes; every kind moves some online row. */
type Write =
  | { kind: 'visibility' | 'role' | 'unholiday'; tutor: number }
  | { kind: 'subscription'; tutor: number; active: boolean }
  | { kind: 'subject'; tutor: number; subject: number }
  | { kind: 'weekday'; tutor: number; day: number }
  | { kind: 'holiday'; tutor: number; start: number; days: number }
  | { kind: 'refresh'; tutor: number }
  | { kind: 'compact' }

const writeOf = (tutors: number, subjects: number): fc.Arbitrary<Write> => {
  const tutor = fc.nat({ max: tutors - 1 })
  return fc.oneof(
    fc.record({ kind: fc.constantFrom('visibility' as const, 'role' as const, 'unholiday' as const, 'refresh' as const), tutor }),
    fc.record({ kind: fc.constant('subscription' as const), tutor, active: fc.boolean() }),
    fc.record({ kind: fc.constant('subject' as const), tutor, subject: fc.nat({ max: subjects - 1 }) }),
    fc.record({ kind: fc.constant('weekday' as const), tutor, day: fc.nat({ max: 6 }) }),
    fc.record({ kind: fc.constant('holiday' as const), tutor, start: fc.nat({ max: 10 }), days: fc.nat({ max: 4 }) }),
    fc.constant({ kind: 'compact' as const }),
  )
}

/** At most one write per tutor in a batch: writes to one tutor at once may deadlock, which is not what this is about. */
function batches(writes: readonly Write[], size: number): Write[][] {
  const out: Write[][] = []
  for (const write of writes) {
    const open = out.at(-1)
    const clash = open && 'tutor' in write && open.some((w) => 'tutor' in w && w.tutor === write.tutor)
    if (!open || open.length === size || clash) out.push([write])
    else open.push(write)
  }
  return out
}

describe.each(testDatabaseKinds())('the online search count on %s', (kind) => {
  let handle: DatabaseHandle
  let catalog: DemoCatalog
  let ids: number[]
  // A few subjects, so many tutors share each (subject, weekday).
  const subjects = () => catalog.subjects.filter((s) => s.levelIds.length > 0).slice(0, 3)
  const tutorOf = (i: number): DemoTutor => {
    const subject = subjects()[i % 3]!
    return aSearchableTutor(catalog, {
      teaches: [{ subjectId: subject.id, levelIds: [subject.levelIds[0]!], examBoardIds: [], hourlyRatePence: 3000, enabled: true }],
      schedule: DAY_NAMES.filter((_, d) => (d + i) % 3 !== 0).map((day) => ({ day, slots: [{ from: '09:00', to: '12:00' }], lessonTypes: ['online' as const], bufferMinutes: 0 })),
      holidays: i % 4 === 0 ? [{ startDate: '2026-12-02', endDate: '2026-12-04' }, { startDate: '2026-12-09', endDate: '2026-12-12' }] : [],
    })
  }

  beforeAll(async () => {
    handle = await createTestDatabase(kind)
    catalog = await demoCatalog(handle.db)
    // Two loads, so each key has a delta from each before the second load compacts them.
    const load = (from: number, tag: string) => loadDemoTutors(handle.db, Array.from({ length: 6 }, (_, i) => tutorOf(from + i)), { tag, passwordHash: 'x' })
    ids = [...(await load(0, 'counts-a')), ...(await load(6, 'counts-b'))]
  }, 120_000)
  afterAll(() => handle.close())

  const rowsOf = async (query: ReturnType<typeof sql>) => (await query.execute(handle.db)).rows
  const countRows = () => rowsOf(sql`select subject_id, weekday, count(*)::int as n from tutor_search_online_counts group by 1, 2 having count(*) > 0 order by 1, 2`)

  /** The kept count and ranges against the rows they stand for, and the total search answers against a count of the rows. */
  async function expectExact() {
    const kept = await rowsOf(sql`select subject_id, weekday, sum(n)::int as n from tutor_search_online_counts group by 1, 2 having sum(n) <> 0 order by 1, 2`)
    const rows = await rowsOf(sql`select subject_id, weekday, count(*)::int as n from tutor_search_online group by 1, 2 order by 1, 2`)
    expect(kept).toEqual(rows)
    const ranges = await rowsOf(sql`select subject_id, weekday, tutor_id, during::text from tutor_search_online_away order by 1, 2, 3, 4`)
    const ofRows = await rowsOf(sql`select r.subject_id, r.weekday, r.tutor_id, d::text as during from tutor_search_online r cross join lateral unnest(r.away) d order by 1, 2, 3, 4`)
    expect(ranges).toEqual(ofRows)
    const search = tutorSearchRepository(handle.db)
    for (const subject of subjects()) {
      for (const date of DATES) {
        const weekday = new Date(`${date}T00:00:00Z`).getUTCDay()
        const criteria = { today: TODAY, date, weekday, lessonType: 'online', subjectId: subject.id, subjectLevelIds: [], examBoardIds: [], sort: 'rating' } as const
        const { rows: counted } = await sql<{ n: number }>`select count(*)::int as n from tutor_search_online
          where subject_id = ${subject.id} and weekday = ${weekday} and (away is null or not away @> ${date}::date)`.execute(handle.db)
        const expected = counted[0]!.n
        expect((await search.search(criteria, { page: 1, perPage: 5 })).total).toBe(expected)
        // Past the last page, the count alone.
        expect(await search.search(criteria, { page: 50, perPage: 5 })).toEqual({ items: [], total: expected })
      }
    }
  }

  async function apply(write: Write): Promise<unknown> {
    if (write.kind === 'compact') return compactOnlineSearchCounts(handle.db)
    const tutor = ids[write.tutor]!
    switch (write.kind) {
      case 'visibility':
        return sql`update profiles set is_visible = not is_visible where user_id = ${tutor}`.execute(handle.db)
      case 'role':
        return sql`update users set role_id = case when role_id = 3 then 1 else 3 end where id = ${tutor}`.execute(handle.db)
      case 'subscription':
        return sql`update subscriptions set status = ${write.active ? 'active' : 'canceled'} where user_id = ${tutor}`.execute(handle.db)
      case 'subject':
        return sql`update teaches set subject_id = ${subjects()[write.subject]!.id} where tutor_id = ${tutor}`.execute(handle.db)
      case 'weekday':
        return handle.db.transaction().execute(async (trx) => {
          const gone = await sql`delete from day_availabilities where tutor_id = ${tutor} and day = ${write.day}`.execute(trx)
          if (Number(gone.numAffectedRows ?? 0) > 0) return
          const { rows } = await sql<{ id: number }>`insert into day_availabilities (tutor_id, day, lesson_types, buffer_minutes)
            values (${tutor}, ${write.day}, '{online}', 0) returning id`.execute(trx)
          await sql`insert into day_availability_slots (day_availability_id, tutor_id, day, starts_at, ends_at)
            values (${rows[0]!.id}, ${tutor}, ${write.day}, '09:00', '10:00')`.execute(trx)
        })
      case 'holiday':
        return sql`insert into holidays (tutor_id, start_date, end_date)
          values (${tutor}, ${TODAY}::date + ${write.start}::int, ${TODAY}::date + ${write.start + write.days}::int)`.execute(handle.db)
      case 'unholiday':
        return sql`delete from holidays where tutor_id = ${tutor}`.execute(handle.db)
      case 'refresh':
        return sql`select tutor_search_online_refresh(${`{${tutor}}`}::bigint[])`.execute(handle.db)
    }
  }

  it('a bulk load leaves one count row per subject and weekday, and the totals exact', async () => {
    const keys = await rowsOf(sql`select distinct subject_id, weekday from tutor_search_online`)
    expect((await countRows()).every((r) => (r as { n: number }).n === 1)).toBe(true)
    expect(await countRows()).toHaveLength(keys.length)
    // Holidays are in the data: some totals are lower than the rows of their key.
    const ranges = await rowsOf(sql`select 1 from tutor_search_online_away`)
    expect(ranges.length).toBeGreaterThan(0)
    await expectExact()
  }, 120_000)

  it('stays exact through generated writes, refreshes and compactions, several at once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(writeOf(ids.length, 3), { minLength: 1, maxLength: 16 }), async (writes) => {
        for (const batch of batches(writes, 4)) await Promise.all(batch.map(apply))
        await expectExact()
      }),
      { numRuns: kind === 'pglite' ? 12 : 25 },
    )
    // Compacted, one row per key again.
    await compactOnlineSearchCounts(handle.db)
    expect((await countRows()).every((r) => (r as { n: number }).n === 1)).toBe(true)
    await expectExact()
  }, 300_000)

  it('two compactions at once both finish, and the sums stay', async () => {
    // Tutors of their own (the writes before may have left any tutor unsearchable), rewritten twice: deltas to fold.
    const fresh = `{${(await loadDemoTutors(handle.db, [0, 1, 2].map(tutorOf), { tag: 'twice', passwordHash: 'x' })).join(',')}}`
    for (const _ of [1, 2]) await sql`select tutor_search_online_refresh(${fresh}::bigint[])`.execute(handle.db)
    const folded = await Promise.all([compactOnlineSearchCounts(handle.db), compactOnlineSearchCounts(handle.db)])
    expect(folded.some((n) => n > 0)).toBe(true)
    expect((await countRows()).every((r) => (r as { n: number }).n === 1)).toBe(true)
    await expectExact()
  })

  it.runIf(kind === 'postgres')('a compaction beside a writer still in its transaction leaves the writer its deltas', async () => {
    let release = () => undefined as void
    const held = new Promise<void>((resolve) => (release = resolve))
    let written = () => undefined as void
    const wrote = new Promise<void>((resolve) => (written = resolve))
    const writer = handle.db.transaction().execute(async (trx) => {
      await sql`update profiles set is_visible = not is_visible where user_id = ${ids[5]!}`.execute(trx)
      written()
      await held
    })
    await wrote
    // Both run and commit while the writer's deltas are not yet committed.
    await Promise.all([compactOnlineSearchCounts(handle.db), compactOnlineSearchCounts(handle.db)])
    await expectExact()
    release()
    await writer
    await expectExact()
    await apply({ kind: 'visibility', tutor: 5 })
    await expectExact()
  })
})
