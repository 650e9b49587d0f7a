import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addSearchableTutor, catalogOf, testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from '../support/harness'
import { recordFinding, Tally } from '../support/findings'

type Problem = { status: number; code: string; errors?: Record<string, string[]> }

const FAR = ['9999-12-31', '2101-01-01', '1899-12-31', '0001-01-01']

/**
 * Issue 13: `date=9999-12-31` on availability was a 500. CONTRACT §14: a date outside
 * 1900..2100 is a 422 wherever a date or an instant is taken, in a query or a body.
 */
describe.each(testDatabaseKinds())('dates outside 1900..2100, on %s', (kind) => {
  let t: TestContext
  let student: Awaited<ReturnType<TestContext['register']>>
  let tutor: Awaited<ReturnType<TestContext['register']>>
  let teach = { id: 0, levelId: 0 }
  beforeAll(async () => {
    t = await createTestContext(kind)
    student = await t.register('student')
    tutor = await t.bookableTutor()
    const catalog = await catalogOf(t)
    const tutorId = await addSearchableTutor(t, catalog)
    const row = await t.db.selectFrom('teaches').select('id').where('tutor_id', '=', tutorId).executeTakeFirstOrThrow()
    const level = await t.db.selectFrom('teach_subject_levels').select('subject_level_id').where('teach_id', '=', row.id).executeTakeFirstOrThrow()
    teach = { id: row.id, levelId: level.subject_level_id }
  })
  afterAll(() => t.close())

  it('are a 422 naming the field, in queries and bodies alike', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Dates outside 1900..2100',
      tried: 'years 1, 1899, 2101 and 9999 in availability and search queries, booking and reschedule instants, holidays, date of birth, DBS issue date',
      held: '422 validation_failed on the field, never a 500',
    })
    const tally = new Tally()
    const failures: string[] = []
    const expect422 = async (what: string, field: string, call: () => Promise<{ status: number; body: Problem }>) => {
      const res = tally.send(await call())
      if (res.status !== 422 || !res.body?.errors?.[field]) failures.push(`${what}: ${res.status} ${JSON.stringify(res.body)}`)
    }
    for (const date of FAR) {
      await expect422(`availability date=${date}`, 'date', () => t.request<Problem>('GET', `/api/availabilites?teach_id=${teach.id}&date=${date}`))
      await expect422(`v1 availability date=${date}`, 'date', () =>
        t.request<Problem>('GET', `/api/v1/availabilities/search?teach_id=${teach.id}&date=${date}`, { token: student.token }),
      )
      await expect422(`search GET date=${date}`, 'date', () => t.request<Problem>('GET', `/api/v1/search?date=${date}`))
      await expect422(`search POST date=${date}`, 'date', () => t.request<Problem>('POST', '/api/v1/search', { body: { date } }))
      await expect422(`booking start ${date}`, 'start', () =>
        t.request<Problem>('POST', '/api/bookings', {
          token: student.token,
          body: { teach_id: teach.id, subject_level_id: teach.levelId, start: `${date}T10:00:00Z`, finish: `${date}T11:00:00Z`, lesson_type: 3 },
        }),
      )
      await expect422(`reschedule ${date}`, 'suggested_start', () =>
        t.request<Problem>('PUT', '/api/lessons/1/edit', { token: student.token, body: { suggested_start: `${date}T10:00:00Z`, suggested_finish: `${date}T11:00:00Z` } }),
      )
      await expect422(`holiday ${date}`, 'start_date', () =>
        t.request<Problem>('POST', '/api/v1/holidays', { token: tutor.token, body: { start_date: date, end_date: '2026-12-31' } }),
      )
      await expect422(`date of birth ${date}`, 'date_of_birth', () =>
        t.request<Problem>('POST', '/api/auth/register', {
          body: { email: `dob.${date}@example.com`, password: 'password123', firstname: 'A', lastname: 'B', role: 'student', country: 'GB', date_of_birth: date },
        }),
      )
    }
    finding.figures = { requests: tally.requests, 'limits reached': tally.limitsReached }
    expect(failures).toEqual([])
  })
})
