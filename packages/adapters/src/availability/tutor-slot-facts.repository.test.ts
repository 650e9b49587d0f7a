import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../db/connect'
import { createTestDatabase, testDatabaseKinds } from '../testing'
import type { DemoTutor } from '@tutoring/testkit/demo'
import { demoCatalog, loadDemoTutors } from '../db/seed/load-demo-tutors'
import { bookableTeachRepository } from './bookable-teach.repository'
import { scheduleRepositories } from '../schedule'
import { tutorSlotFactsRepository } from './tutor-slot-facts.repository'

const tutor = (subjectId: number, levelId: number, overrides: Partial<DemoTutor> = {}): DemoTutor => ({
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
  ...overrides,
})

const at = (iso: string) => new Date(`2026-12-${iso}Z`)
const range = { from: at('07T00:00:00'), to: at('10T00:00:00') }

describe.each(testDatabaseKinds())('a tutor’s slot facts on %s', (kind) => {
  let handle: DatabaseHandle
  let withAll: number
  let bare: number
  let teachId: number
  let lessonIds: Record<string, number>

  beforeAll(async () => {
    handle = await createTestDatabase(kind)
    const subject = (await demoCatalog(handle.db)).subjects.find((s) => s.levelIds.length > 0)!
    const level = subject.levelIds[0]!
    ;[withAll, bare] = (await loadDemoTutors(
      handle.db,
      [
        tutor(subject.id, level, {
          location: { postcode: 'SW1A 1AA', outcode: 'SW1A', lat: 51.501, lng: -0.1416, travelDistanceMiles: 7.5 },
        }),
        tutor(subject.id, level),
      ],
      { tag: 'facts', passwordHash: 'x' },
    )) as [number, number]
    const schedules = scheduleRepositories.outside(handle.db, () => new Date()).daySchedules
    const entry = { lessonTypes: ['online' as const], bufferMinutes: 15, subjectId: null, subjectLevelId: null, examBoardId: null }
    // Windows out of order within an entry, and a later entry that starts earlier on the same day.
    await schedules.insert(withAll, { ...entry, day: 'MONDAY', slots: [{ from: '14:00', to: '16:00' }, { from: '09:00', to: '11:00' }] })
    await schedules.insert(withAll, { ...entry, day: 'MONDAY', slots: [{ from: '22:00', to: '24:00' }, { from: '07:00', to: '08:30' }], subjectId: subject.id, subjectLevelId: level })
    await schedules.insert(withAll, { ...entry, day: 'SUNDAY', slots: [{ from: '10:00', to: '12:00' }], lessonTypes: ['tutors_home', 'online'] })
    const holidays = scheduleRepositories.outside(handle.db, () => new Date()).holidays
    await holidays.insert(withAll, { startDate: '2026-12-24', endDate: '2026-12-26' })
    await holidays.insert(withAll, { startDate: '2026-08-01', endDate: '2026-08-14' })

    teachId = (await handle.db.selectFrom('teaches').select('id').where('tutor_id', '=', withAll).executeTakeFirstOrThrow()).id
    const lesson = async (start: string, finish: string, more: { lessonType?: number; state?: number; address?: object } = {}) =>
      (
        await handle.db
          .insertInto('lessons')
          .values({
            tutor_id: withAll,
            student_id: bare,
            teach_id: teachId,
            subject_id: subject.id,
            subject_level_id: level,
            lesson_type: more.lessonType ?? 3,
            state: more.state ?? 1,
            start_at: at(start),
            finish_at: at(finish),
            address: more.address ? JSON.stringify(more.address) : null,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id
    const address = { line1: '2 Low Road', line2: null, city: 'London', postcode: 'SW1A 2AA', country: 'GB' }
    lessonIds = {
      endsAtFrom: await lesson('06T23:00:00', '07T00:00:00'),
      startsAtFrom: await lesson('07T00:00:00', '07T00:30:00'),
      atStudent: await lesson('08T10:00:00', '08T11:00:00', { lessonType: 2, address: { ...address, lat: 51.49, lng: -0.15 } }),
      cancelled: await lesson('08T10:30:00', '08T11:30:00', { state: 0 }),
      atTutor: await lesson('08T09:00:00.250', '08T09:30:00', { lessonType: 1 }),
      rescheduling: await lesson('09T12:00:00', '09T13:00:00', { state: 2, lessonType: 2, address: { ...address, lat: null, lng: null } }),
      excluded: await lesson('09T14:00:00', '09T15:00:00'),
      straddlesTo: await lesson('09T23:30:00', '10T00:30:00'),
      later: await lesson('10T00:30:00', '10T01:00:00'),
    }
  }, 60_000)
  afterAll(() => handle.close())

  it('answers what the schedule pages’ readers answer, in their order', async () => {
    const facts = await tutorSlotFactsRepository(handle.db).forTutor(withAll, range)
    const schedule = scheduleRepositories.outside(handle.db, () => new Date())
    expect(facts.schedule).toEqual(await schedule.daySchedules.listForTutor(withAll))
    expect(facts.schedule.map((e) => [e.day, e.slots])).toEqual([
      ['SUNDAY', [{ from: '10:00', to: '12:00' }]],
      ['MONDAY', [{ from: '07:00', to: '08:30' }, { from: '22:00', to: '24:00' }]],
      ['MONDAY', [{ from: '09:00', to: '11:00' }, { from: '14:00', to: '16:00' }]],
    ])
    expect(facts.holidays).toEqual(await schedule.holidays.listForTutor(withAll))
    expect(facts.holidays.map((h) => h.startDate)).toEqual(['2026-08-01', '2026-12-24'])
    expect(facts.location).toEqual(await schedule.locations.findForTutor(withAll))
    expect(facts.location).toMatchObject({ tutorId: withAll, lat: 51.501, lng: -0.1416, travelDistanceMiles: 7.5 })
  })

  it('holds the live lessons overlapping the range, in start order, and leaves out cancelled and excluded ones', async () => {
    const reader = tutorSlotFactsRepository(handle.db)
    const facts = await reader.forTutor(withAll, range)
    expect(facts.lessons).toEqual([
      { id: lessonIds.startsAtFrom, start: at('07T00:00:00'), finish: at('07T00:30:00'), lessonType: 'online', addressPoint: null },
      { id: lessonIds.atTutor, start: at('08T09:00:00.250'), finish: at('08T09:30:00'), lessonType: 'tutors_home', addressPoint: null },
      { id: lessonIds.atStudent, start: at('08T10:00:00'), finish: at('08T11:00:00'), lessonType: 'students_home', addressPoint: { lat: 51.49, lng: -0.15 } },
      { id: lessonIds.rescheduling, start: at('09T12:00:00'), finish: at('09T13:00:00'), lessonType: 'students_home', addressPoint: null },
      { id: lessonIds.excluded, start: at('09T14:00:00'), finish: at('09T15:00:00'), lessonType: 'online', addressPoint: null },
      { id: lessonIds.straddlesTo, start: at('09T23:30:00'), finish: at('10T00:30:00'), lessonType: 'online', addressPoint: null },
    ])
    const without = await reader.forTutor(withAll, { ...range, excludeLessonId: lessonIds.excluded })
    expect(without.lessons.map((l) => l.id)).toEqual(facts.lessons.map((l) => l.id).filter((id) => id !== lessonIds.excluded))
    // Half-open at both ends: a lesson starting at `to` is out.
    const shorter = await reader.forTutor(withAll, { from: range.from, to: at('09T23:30:00') })
    expect(shorter.lessons.map((l) => l.id)).toEqual(facts.lessons.map((l) => l.id).filter((id) => id !== lessonIds.straddlesTo))
  })

  it('answers empty parts and no location for a tutor with none', async () => {
    expect(await tutorSlotFactsRepository(handle.db).forTutor(bare, range)).toEqual({ schedule: [], holidays: [], location: undefined, lessons: [] })
  })

  it('reads a teach as findBookableTeach does, with its tutor’s facts, and nothing for a disabled teach', async () => {
    const reader = tutorSlotFactsRepository(handle.db)
    const found = await reader.forTeach(teachId, range)
    expect(found).toEqual({ ...(await bookableTeachRepository(handle.db).findBookableTeach(teachId)), facts: await reader.forTutor(withAll, range) })
    await handle.db.updateTable('teaches').set({ enabled: false }).where('id', '=', teachId).execute()
    try {
      expect(await reader.forTeach(teachId, range)).toBeUndefined()
    } finally {
      await handle.db.updateTable('teaches').set({ enabled: true }).where('id', '=', teachId).execute()
    }
  })
})
