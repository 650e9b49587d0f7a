import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { DAY_NAMES } from '@tutoring/domain/schedule'
import type { DatabaseHandle } from '../db/connect'
import { createTestDatabase, testDatabaseKinds } from '../testing'
import { generateDemoTutors, type DemoTutor } from '@tutoring/testkit/demo'
import { demoCatalog, loadDemoTutors } from '../db/seed/load-demo-tutors'
import { boxAround, scheduleBits, tutorSearchRepository } from './tutor-search.repository'

const complete = (subjectId: number, levelId: number): DemoTutor => ({
  firstname: 'Ada',
  lastname: 'Lovelace',
  gender: null,
  bio: 'Maths.',
  hasPicture: true,
  hasVideo: true,
  hasMobile: true,
  address: { line1: '1 High Street', city: 'London', postcode: 'SW1A 1AA' },
  isVisible: true,
  tutoringExperienceMonths: null,
  verifications: { identity: 'PASS', dbs: 'PASS', qualification: 'PASS' },
  subscriptionStatus: 'trialing',
  languageIds: [],
  location: null,
  teaches: [{ subjectId, levelIds: [levelId], examBoardIds: [], hourlyRatePence: 3000, enabled: true }],
  schedule: [],
  holidays: [],
  rating: null,
})

describe('the bounding box', () => {
  it('holds every point within the distance, whatever the direction', () => {
    const miles = 40
    const { latSpan, lngSpan } = boxAround(55, miles)
    // A degree of latitude is 69.09 miles; of longitude at 55.58°N (the poleward edge), 39.04.
    expect(latSpan * 69.09).toBeGreaterThanOrEqual(miles)
    expect(lngSpan * 69.09 * Math.cos((55 * Math.PI) / 180)).toBeGreaterThanOrEqual(miles)
  })
})

describe.each(testDatabaseKinds())('the search table on %s', (kind) => {
  let handle: DatabaseHandle
  beforeAll(async () => {
    handle = await createTestDatabase(kind)
  })
  afterAll(() => handle.close())

  // The online index holds exactly the rows its definition derives from the table.
  const onlineRows = (from: 'index' | 'table') =>
    from === 'index'
      ? sql`select subject_id, weekday, tutor_id, lat, lng, tutoring_experience_months, overall_rating, review_count, away::text from tutor_search_online order by 1, 2, 3`.execute(handle.db)
      : sql`select r.subject_id, r.weekday, ts.tutor_id, ts.lat, ts.lng, ts.tutoring_experience_months, ts.overall_rating, ts.review_count, ts.away::text
            from tutor_search ts cross join lateral tutor_search_online_rows(ts) r order by 1, 2, 3`.execute(handle.db)

  // The in-person index likewise, box and all.
  const inPersonRows = (from: 'index' | 'table') =>
    from === 'index'
      ? sql`select subject_id, tutor_id, reach::text, schedule_mask, lat, lng, travel_distance_miles, tutoring_experience_months, overall_rating, review_count, away::text
            from tutor_search_in_person order by 1, 2`.execute(handle.db)
      : sql`select s as subject_id, ts.tutor_id, tutor_search_reach_box(s, ts.lat, ts.lng, ts.travel_distance_miles)::text as reach, ts.schedule_mask,
              ts.lat, ts.lng, ts.travel_distance_miles, ts.tutoring_experience_months, ts.overall_rating, ts.review_count, ts.away::text
            from tutor_search ts cross join lateral tutor_search_in_person_subjects(ts) s order by 1, 2`.execute(handle.db)

  const searchable = async (id: number) =>
    (await handle.db.selectFrom('tutor_search').select('searchable').where('tutor_id', '=', id).executeTakeFirst())?.searchable

  it('after a bulk load, holds what the triggers would have written, and keeps following writes', async () => {
    const catalog = await demoCatalog(handle.db)
    // Three chunks, so both writers run; searchable and not, in person and online.
    const tutors = generateDemoTutors({ seed: 5, tutors: 2_500, today: '2026-12-01', catalog })
    const ids = await loadDemoTutors(handle.db, tutors, { tag: 'bulk', passwordHash: 'x' })
    expect(ids).toHaveLength(2_500)
    expect(new Set(ids).size).toBe(2_500)
    const firstnames = await handle.db.selectFrom('users').select(['id', 'firstname']).where('id', 'in', [ids[0]!, ids[1_234]!, ids[2_499]!]).execute()
    expect(new Map(firstnames.map((u) => [Number(u.id), u.firstname]))).toEqual(
      new Map([ids[0]!, ids[1_234]!, ids[2_499]!].map((id, i) => [id, tutors[[0, 1_234, 2_499][i]!]!.firstname])),
    )

    const table = () =>
      sql`select tutor_id, profile_complete, verified, is_visible, searchable, subscribed, lat, lng, travel_distance_miles, gender,
            language_ids, tutoring_experience_months, schedule_mask, subject_ids, search_keys, overall_rating, review_count, away::text
          from tutor_search where tutor_id = any(${`{${ids.join(',')}}`}::bigint[]) order by tutor_id`.execute(handle.db)
    const loaded = (await table()).rows
    expect(loaded).toHaveLength(2_500)
    // The ratings the load wrote, copied by the deferred refresh (ids answer in the order given;
    // the two writers' chunks need not take ascending ids).
    const ratingOf = new Map(
      (loaded as Array<{ tutor_id: number; overall_rating: number | null; review_count: number }>).map((r) => [Number(r.tutor_id), [r.overall_rating, r.review_count]]),
    )
    expect(ids.map((id) => ratingOf.get(id))).toEqual(tutors.map((t) => [t.rating?.overallRating ?? null, t.rating?.reviewCount ?? 0]))
    expect(loaded.filter((r) => (r as { searchable: boolean }).searchable).length).toBeGreaterThan(0)
    // And each tutor's holidays, as one multirange holding every day of each (sql/holidays.sql).
    const away = (loaded as Array<{ away: string | null }>).filter((r) => r.away !== null)
    expect(away.length).toBe(tutors.filter((t) => t.holidays.length > 0).length)
    expect(away.length).toBeGreaterThan(0)
    const held = await sql<{ all_held: boolean }>`select bool_and(ts.away @> h.start_date and ts.away @> h.end_date) as all_held
      from holidays h join tutor_search ts on ts.tutor_id = h.tutor_id where h.tutor_id = any(${`{${ids.join(',')}}`}::bigint[])`.execute(handle.db)
    expect(held.rows[0]!.all_held).toBe(true)
    // Both search tables left settled: statistics for the planner, and pages marked all-visible
    // so the online search is an index-only scan from the first request.
    const settled = await sql<{ relname: string }>`select relname from pg_stat_user_tables
      where relname in ('tutor_search', 'tutor_search_in_person', 'tutor_search_online') and last_vacuum is not null and last_analyze is not null
      order by relname`.execute(handle.db)
    expect(settled.rows.map((r) => r.relname)).toEqual(['tutor_search', 'tutor_search_in_person', 'tutor_search_online'])
    // The online index holds exactly the rows its definition derives from the table.
    const indexed = (await onlineRows('index')).rows
    expect(indexed.length).toBeGreaterThan(100)
    expect(indexed).toEqual((await onlineRows('table')).rows)
    const inPerson = (await inPersonRows('index')).rows
    expect(inPerson.length).toBeGreaterThan(100)
    expect(inPerson).toEqual((await inPersonRows('table')).rows)
    const all = sql`${`{${ids.join(',')}}`}::bigint[]`
    await sql`select tutor_search_refresh(${all}), tutor_search_refresh_offer(${all}), tutor_search_refresh_subscribed(${all})`.execute(handle.db)
    expect((await table()).rows).toEqual(loaded)

    // The deferral was the load's own: a later write refreshes at once.
    const visible = (loaded as Array<{ tutor_id: number; is_visible: boolean }>).find((r) => r.is_visible)!
    await handle.db.updateTable('profiles').set({ is_visible: false }).where('user_id', '=', visible.tutor_id).execute()
    const after = await handle.db.selectFrom('tutor_search').select(['is_visible', 'searchable']).where('tutor_id', '=', visible.tutor_id).executeTakeFirstOrThrow()
    expect(after).toEqual({ is_visible: false, searchable: false })
  }, 120_000)

  it('is right after two transactions change one tutor at the same time', async () => {
    const catalog = await demoCatalog(handle.db)
    const subject = catalog.subjects.find((s) => s.levelIds.length > 0)!
    const [id] = await loadDemoTutors(handle.db, [{ ...complete(subject.id, subject.levelIds[0]!), address: null, isVisible: false }], { tag: 'race', passwordHash: 'x' })
    expect(await searchable(id!)).toBe(false)
    // One adds the address and holds its transaction open while the other makes the profile visible.
    let release = () => undefined as void
    const held = new Promise<void>((resolve) => (release = resolve))
    let inserted = () => undefined as void
    const insertDone = new Promise<void>((resolve) => (inserted = resolve))
    const first = handle.db.transaction().execute(async (trx) => {
      await trx.insertInto('addresses').values({ user_id: id!, line1: '1 High Street', city: 'London', postcode: 'SW1A 1AA' }).execute()
      inserted()
      await held
    })
    // The second starts only once the first has written (a fixed sleep left that to the scheduler).
    await insertDone
    const second = handle.db.transaction().execute(async (trx) => {
      await trx.updateTable('profiles').set({ is_visible: true }).where('user_id', '=', id!).execute()
    })
    await new Promise((resolve) => setTimeout(resolve, 100))
    release()
    await Promise.all([first, second])
    expect(await searchable(id!)).toBe(true)
  })

  const offer = async (id: number) => {
    const row = await handle.db
      .selectFrom('tutor_search')
      .select(['schedule_mask', 'subject_ids', 'search_keys', 'lat', 'lng', 'travel_distance_miles'])
      .where('tutor_id', '=', id)
      .executeTakeFirstOrThrow()
    const expectedKeys = await sql<{ keys: number[] }>`select tutor_search_keys_of(${`{${row.subject_ids.join(',')}}`}::int[], ${row.schedule_mask}::int, ${row.lat}::float8, ${row.lng}::float8, ${row.travel_distance_miles}::float8) as keys`.execute(handle.db)
    // The keys always follow the columns they are made of.
    expect([...row.search_keys].sort()).toEqual([...expectedKeys.rows[0]!.keys].sort())
    return { mask: row.schedule_mask, subjects: row.subject_ids, keys: row.search_keys }
  }

  it('keeps the schedule mask, subjects and search keys right as schedules and teaches change', async () => {
    const catalog = await demoCatalog(handle.db)
    const [first, second] = catalog.subjects.filter((s) => s.levelIds.length > 0)
    const [id] = await loadDemoTutors(
      handle.db,
      [
        {
          ...complete(first!.id, first!.levelIds[0]!),
          location: { postcode: 'SW1A 1AA', outcode: 'SW1A', lat: 51.501, lng: -0.1416, travelDistanceMiles: 10 },
          schedule: [{ day: 'MONDAY', slots: [{ from: '09:00', to: '12:00' }], lessonTypes: ['online'], bufferMinutes: 0 }],
        },
      ],
      { tag: 'offer', passwordHash: 'x' },
    )
    const tutor = id!
    expect(await offer(tutor)).toMatchObject({ mask: scheduleBits(1, 'online'), subjects: [first!.id] })
    // The online index: a row per subject and weekday offered online.
    const online = async () =>
      (await handle.db.selectFrom('tutor_search_online').select(['subject_id', 'weekday']).where('tutor_id', '=', tutor).orderBy('subject_id').orderBy('weekday').execute()).map(
        (r) => [r.subject_id, r.weekday],
      )
    expect(await online()).toEqual([[first!.id, 1]])
    // The in-person index: a row per subject while some window offers an in-person lesson.
    const inPerson = async () =>
      (await handle.db.selectFrom('tutor_search_in_person').select(['subject_id', 'schedule_mask', 'lat']).where('tutor_id', '=', tutor).orderBy('subject_id').execute()).map(
        (r) => [r.subject_id, r.schedule_mask, r.lat],
      )
    expect(await inPerson()).toEqual([])
    const monday = await handle.db.selectFrom('day_availabilities').select('id').where('tutor_id', '=', tutor).executeTakeFirstOrThrow()

    // A window on another weekday of the same entry.
    await handle.db.insertInto('day_availability_slots').values({ day_availability_id: monday.id, tutor_id: tutor, day: 3, starts_at: '14:00', ends_at: '15:00' }).execute()
    expect((await offer(tutor)).mask).toBe(scheduleBits(1, 'online') | scheduleBits(3, 'online'))
    expect(await online()).toEqual([[first!.id, 1], [first!.id, 3]])
    // The entry's lesson types change.
    await handle.db.updateTable('day_availabilities').set({ lesson_types: ['students_home', 'tutors_home'] }).where('id', '=', monday.id).execute()
    expect((await offer(tutor)).mask).toBe(scheduleBits(1, 'students_home') | scheduleBits(3, 'students_home') | scheduleBits(1, 'tutors_home') | scheduleBits(3, 'tutors_home'))
    expect(await online()).toEqual([])
    expect(await inPerson()).toEqual([[first!.id, (await offer(tutor)).mask, 51.5]])
    // A window moves to another day; then one goes.
    await handle.db.updateTable('day_availability_slots').set({ day: 5 }).where('day_availability_id', '=', monday.id).where('day', '=', 3).execute()
    expect((await offer(tutor)).mask).toBe(scheduleBits(1, 'students_home') | scheduleBits(5, 'students_home') | scheduleBits(1, 'tutors_home') | scheduleBits(5, 'tutors_home'))
    await handle.db.deleteFrom('day_availability_slots').where('day_availability_id', '=', monday.id).where('day', '=', 5).execute()
    expect((await offer(tutor)).mask).toBe(scheduleBits(1, 'students_home') | scheduleBits(1, 'tutors_home'))
    // An entry without windows offers nothing; deleting the entry takes its windows with it.
    const empty = await handle.db.insertInto('day_availabilities').values({ tutor_id: tutor, day: 2, lesson_types: ['online'], buffer_minutes: 0 }).returning('id').executeTakeFirstOrThrow()
    expect((await offer(tutor)).mask).toBe(scheduleBits(1, 'students_home') | scheduleBits(1, 'tutors_home'))
    await handle.db.deleteFrom('day_availabilities').where('id', 'in', [monday.id, empty.id]).execute()
    expect(await offer(tutor)).toMatchObject({ mask: 0 })
    expect(await inPerson()).toEqual([])

    // Teaches: a second subject, one disabled, one soft-deleted.
    const added = await handle.db.insertInto('teaches').values({ tutor_id: tutor, subject_id: second!.id, hourly_rate_pence: 4000, enabled: true, deleted_at: null }).returning('id').executeTakeFirstOrThrow()
    expect((await offer(tutor)).subjects).toEqual([first!.id, second!.id].sort((a, b) => a - b))
    await handle.db.updateTable('teaches').set({ enabled: false }).where('tutor_id', '=', tutor).where('subject_id', '=', first!.id).execute()
    expect((await offer(tutor)).subjects).toEqual([second!.id])
    await handle.db.updateTable('teaches').set({ deleted_at: new Date() }).where('id', '=', added.id).execute()
    expect((await offer(tutor)).subjects).toEqual([])

    // The keys hold the student's cell and follow a new location.
    const keysNear = async (lat: number, lng: number) => {
      const cell = await sql<{ cell: number }>`select tutor_search_cell(${lat}::float8, ${lng}::float8) as cell`.execute(handle.db)
      return (await offer(tutor)).keys.includes(cell.rows[0]!.cell)
    }
    expect(await keysNear(51.501, -0.1416)).toBe(true)
    expect(await keysNear(53.48, -2.24)).toBe(false)
    await handle.db.updateTable('locations').set({ lat: 53.48, lng: -2.24 }).where('tutor_id', '=', tutor).execute()
    expect(await keysNear(53.48, -2.24)).toBe(true)
    expect(await keysNear(51.501, -0.1416)).toBe(false)
    // Back in person, at the new place: the in-person row follows, as its definition derives it.
    await handle.db.updateTable('teaches').set({ enabled: true }).where('tutor_id', '=', tutor).where('subject_id', '=', first!.id).execute()
    const home = await handle.db.insertInto('day_availabilities').values({ tutor_id: tutor, day: 2, lesson_types: ['students_home'], buffer_minutes: 0 }).returning('id').executeTakeFirstOrThrow()
    await handle.db.insertInto('day_availability_slots').values({ day_availability_id: home.id, tutor_id: tutor, day: 2, starts_at: '09:00', ends_at: '10:00' }).execute()
    expect(await inPerson()).toEqual([[first!.id, scheduleBits(2, 'students_home'), 53.48]])
    expect((await inPersonRows('index')).rows).toEqual((await inPersonRows('table')).rows)
  })

  it('reads the schedule again for a tutor whose role returns', async () => {
    const catalog = await demoCatalog(handle.db)
    const subject = catalog.subjects.find((s) => s.levelIds.length > 0)!
    const [id] = await loadDemoTutors(
      handle.db,
      [{ ...complete(subject.id, subject.levelIds[0]!), schedule: [{ day: 'FRIDAY', slots: [{ from: '09:00', to: '10:00' }], lessonTypes: ['online'], bufferMinutes: 0 }] }],
      { tag: 'offer-role', passwordHash: 'x' },
    )
    await handle.db.updateTable('users').set({ role_id: 1 }).where('id', '=', id!).execute()
    // Changed while not a tutor: no row to keep.
    await handle.db.updateTable('day_availabilities').set({ lesson_types: ['tutors_home'] }).where('tutor_id', '=', id!).execute()
    await handle.db.updateTable('users').set({ role_id: 3 }).where('id', '=', id!).execute()
    expect(await offer(id!)).toMatchObject({ mask: scheduleBits(5, 'tutors_home'), subjects: [subject.id] })
  })

  it('drops a tutor whose account is deleted, and takes back one whose role returns', async () => {
    const catalog = await demoCatalog(handle.db)
    const subject = catalog.subjects.find((s) => s.levelIds.length > 0)!
    const [id] = await loadDemoTutors(handle.db, [complete(subject.id, subject.levelIds[0]!)], { tag: 'gone', passwordHash: 'x' })
    expect(await searchable(id!)).toBe(true)
    await handle.db.updateTable('users').set({ role_id: 1 }).where('id', '=', id!).execute()
    expect(await searchable(id!)).toBeUndefined()
    await handle.db.updateTable('users').set({ role_id: 3 }).where('id', '=', id!).execute()
    expect(await searchable(id!)).toBe(true)
    await sql`delete from users where id = ${id!}`.execute(handle.db)
    expect(await searchable(id!)).toBeUndefined()
  })
  it('moves a tutor in rating order as reviews are written, on the online path and the general one', async () => {
    await handle.db.deleteFrom('users').where('role_id', '=', 3).execute()
    const catalog = await demoCatalog(handle.db)
    const subject = catalog.subjects.find((s) => s.levelIds.length > 0)!
    const everyDayOnline = DAY_NAMES.map((day) => ({ day, slots: [{ from: '09:00', to: '17:00' }], lessonTypes: ['online' as const], bufferMinutes: 0 }))
    const tutor = (rating: DemoTutor['rating']): DemoTutor => ({ ...complete(subject.id, subject.levelIds[0]!), schedule: everyDayOnline, rating })
    const [best, middle, unrated] = await loadDemoTutors(
      handle.db,
      [tutor({ overallRating: 4.5, reviewCount: 10 }), tutor({ overallRating: 4, reviewCount: 2 }), tutor(null)],
      { tag: 'rating-order', passwordHash: 'x' },
    )
    const search = tutorSearchRepository(handle.db)
    const page = { page: 1, perPage: 20 }
    const base = { today: '2026-12-01', subjectId: subject.id, subjectLevelIds: [], examBoardIds: [], sort: 'rating' } as const
    // A subject on a date online: tutor_search_online. Without the date: tutor_search.
    const order = async () => {
      const online = await search.search({ ...base, date: '2026-12-02', weekday: 3, lessonType: 'online' }, page)
      const general = await search.search(base, page)
      expect(general.items.map((h) => h.tutorId)).toEqual(online.items.map((h) => h.tutorId))
      return online.items.map((h) => h.tutorId)
    }
    expect(await order()).toEqual([best, middle, unrated])

    // Reviews as the review use case writes them, in one transaction: the rating row taken (made
    // or locked), the review, the new totals (the reviews context's rule: 5 after all fives, then 3).
    const review = (tutorId: number, reviewerId: number, mark: number, rating: { count: number; overall: number }) =>
      handle.db.transaction().execute(async (trx) => {
        await trx.insertInto('tutor_ratings').values({ tutor_id: tutorId, overall_rating: null }).onConflict((oc) => oc.column('tutor_id').doUpdateSet({ tutor_id: tutorId })).execute()
        await trx.insertInto('reviews').values({ tutor_id: tutorId, reviewer_id: reviewerId, knowledge: mark, communication: mark, punctuality: mark, comment: null }).execute()
        await trx.updateTable('tutor_ratings').set({ review_count: rating.count, overall_rating: rating.overall }).where('tutor_id', '=', tutorId).execute()
      })
    // The unrated tutor's first review, all fives, puts them first.
    await review(unrated!, best!, 5, { count: 1, overall: 5 })
    expect(await order()).toEqual([unrated, best, middle])
    // A review of ones takes them to 3, below 4.
    await review(unrated!, middle!, 1, { count: 2, overall: 3 })
    expect(await order()).toEqual([best, middle, unrated])
    // The same rating: more reviews first.
    await handle.db.updateTable('tutor_ratings').set({ overall_rating: 4.5, review_count: 11 }).where('tutor_id', '=', middle!).execute()
    expect(await order()).toEqual([middle, best, unrated])
    // A rating gone (its row deleted): last.
    await handle.db.deleteFrom('tutor_ratings').where('tutor_id', '=', middle!).execute()
    expect(await order()).toEqual([best, unrated, middle])
    expect((await onlineRows('index')).rows).toEqual((await onlineRows('table')).rows)
    expect((await inPersonRows('index')).rows).toEqual((await inPersonRows('table')).rows)
  })
})
