import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import type { DatabaseHandle } from '../connect'
import { createTestDatabase, testDatabaseKinds } from '../../testing'
import { demoCatalog, loadDemoTutors, type DemoTutor } from '../seed/load-demo-tutors'
import { boxAround } from './tutor-search.repository'

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
  languageIds: [],
  location: null,
  teaches: [{ subjectId, levelIds: [levelId], examBoardIds: [], hourlyRatePence: 3000, enabled: true }],
  schedule: [],
  holidays: [],
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

  const searchable = async (id: number) =>
    (await handle.db.selectFrom('tutor_search').select('searchable').where('tutor_id', '=', id).executeTakeFirst())?.searchable

  it('is right after two transactions change one tutor at the same time', async () => {
    const catalog = await demoCatalog(handle.db)
    const subject = catalog.subjects.find((s) => s.levelIds.length > 0)!
    const [id] = await loadDemoTutors(handle.db, [{ ...complete(subject.id, subject.levelIds[0]!), address: null, isVisible: false }], { tag: 'race', passwordHash: 'x' })
    expect(await searchable(id!)).toBe(false)
    // One adds the address and holds its transaction open while the other makes the profile visible.
    let release = () => undefined as void
    const held = new Promise<void>((resolve) => (release = resolve))
    const first = handle.db.transaction().execute(async (trx) => {
      await trx.insertInto('addresses').values({ user_id: id!, line1: '1 High Street', city: 'London', postcode: 'SW1A 1AA' }).execute()
      await held
    })
    await new Promise((resolve) => setTimeout(resolve, 50))
    const second = handle.db.transaction().execute(async (trx) => {
      await trx.updateTable('profiles').set({ is_visible: true }).where('user_id', '=', id!).execute()
    })
    await new Promise((resolve) => setTimeout(resolve, 100))
    release()
    await Promise.all([first, second])
    expect(await searchable(id!)).toBe(true)
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
})
