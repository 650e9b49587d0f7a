import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addSearchableTutor, catalogOf, testDatabaseKinds } from '@tutoring/adapters/testing'
import { fakeClock } from '@tutoring/testkit'
import { createTestContext, type TestContext } from './support/harness'

type Problem = { code: string; errors?: Record<string, string[]> }
type Address = { line1: string | null; line2: string | null; city: string | null; postcode: string; country: string; lat: number; lng: number }

// Monday 1 June 2026, 11:00 in London.
const NOW = new Date('2026-06-01T10:00:00Z')
// N1 9GU (King's Cross), AB10 1XG (Aberdeen) and BT1 1AA (Belfast) are not in the sample postcodes table.
const KINGS_CROSS = 'N1 9GU'
const ABERDEEN = 'AB10 1XG'
const BELFAST = 'BT1 1AA'

/**
 * CONTRACT §17: offline (no POSTCODES_API_URL), any valid postcode works in search,
 * availability and booking, located at its district's centroid when the table lacks it.
 */
describe.each(testDatabaseKinds())('postcodes offline on %s', (kind) => {
  let t: TestContext
  let tutorId = 0
  let teachId = 0
  let levelId = 0

  beforeAll(async () => {
    t = await createTestContext(kind, {}, { clock: fakeClock(NOW) })
    // At Buckingham Palace, travelling 10 miles, 09:00-17:00 every day in every lesson type.
    tutorId = await addSearchableTutor(t, await catalogOf(t))
    const teach = await t.db.selectFrom('teaches').innerJoin('teach_subject_levels', 'teach_subject_levels.teach_id', 'teaches.id').select(['teaches.id', 'teach_subject_levels.subject_level_id']).where('teaches.tutor_id', '=', tutorId).executeTakeFirstOrThrow()
    teachId = teach.id
    levelId = teach.subject_level_id
  })
  afterAll(() => t.close())

  it("finds a tutor from a postcode known only by its district, measuring from the district's centre", async () => {
    const search = (postcode: string, lessonType: string) =>
      t.request<{ data: Array<{ id: number; location: { distance: number | null } }> } & Problem>('GET', `/api/v1/search?post_code=${encodeURIComponent(postcode)}&filters[lesson_type]=${lessonType}`)
    const near = await search(KINGS_CROSS, 'students_home')
    expect(near.status, near.text).toBe(200)
    expect(near.body.data.map((item) => item.id)).toEqual([tutorId])
    // N1's centre lies about three miles from the palace.
    expect(near.body.data[0]!.location.distance).toBeGreaterThanOrEqual(2.5)
    expect(near.body.data[0]!.location.distance).toBeLessThanOrEqual(4)
    expect((await search(ABERDEEN, 'students_home')).body.data).toEqual([])
    expect((await search(ABERDEEN, 'online')).body.data.map((item) => item.id)).toEqual([tutorId])
    expect((await search(BELFAST, 'students_home')).body.data).toEqual([])
    expect((await search(BELFAST, 'online')).body.data.map((item) => item.id)).toEqual([tutorId])
    const nowhere = await search('ZZ9 9ZZ', 'online')
    expect(nowhere.status).toBe(422)
    expect(nowhere.body.errors).toEqual({ post_code: ['could not be located'] })
  })

  it("offers lessons at a student's home within the tutor's travel distance of a postcode known only by its district", async () => {
    const typesFor = async (postcode: string) => {
      const res = await t.request<{ data: { availabilities: Array<{ available_lesson_types: string[] }> } }>(
        'GET',
        `/api/availabilites?teach_id=${teachId}&date=2026-06-02&post_code=${encodeURIComponent(postcode)}`,
      )
      expect(res.status, res.text).toBe(200)
      return res.body.data.availabilities[0]!.available_lesson_types
    }
    expect(await typesFor(KINGS_CROSS)).toContain('students_home')
    expect(await typesFor(ABERDEEN)).not.toContain('students_home')
  })

  it("books a lesson at a student's home whose postcode is known only by its district", async () => {
    const student = await t.register('student')
    const at = (hour: number) => `2026-06-02T${String(hour).padStart(2, '0')}:00:00Z`
    const book = (postcode: string, hour: number) =>
      t.request<{ data: { id: number; lesson: { lesson_type: number } } } & Problem>('POST', '/api/bookings', {
        token: student.token,
        body: {
          teach_id: teachId,
          subject_level_id: levelId,
          lesson_type: 2,
          start: at(hour),
          finish: at(hour + 1),
          address: { line1: '1 Example Street', city: 'Somewhere', postcode },
        },
      })
    const home = await book('n1 9gu', 9)
    expect(home.status, home.text).toBe(201)
    expect(home.body.data.lesson.lesson_type).toBe(2)
    const tooFar = await book(ABERDEEN, 11)
    expect([tooFar.status, tooFar.body.code]).toEqual([409, 'slot_unavailable'])
    const nowhere = await book('ZZ9 9ZZ', 13)
    expect(nowhere.status).toBe(422)
    expect(nowhere.body.errors).toEqual({ 'address.postcode': ['could not be located'] })
  })

  it('answers address search for a postcode, or an outward code, known only by its district', async () => {
    const at = async (postcode: string) => (await t.request<{ data: Address[] }>('GET', `/api/addresses/search?postcode=${encodeURIComponent(postcode)}`)).body.data
    const [postcode] = await at('n19gu')
    expect(postcode).toMatchObject({ line1: null, line2: null, city: null, postcode: 'N1 9GU', country: 'GB' })
    expect(await at('N1')).toEqual([{ ...postcode, postcode: 'N1' }])
    expect(await at('ZZ9 9ZZ')).toEqual([])
  })
})
