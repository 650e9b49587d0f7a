import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { sendDueReminders } from '@tutoring/domain/booking'
import { fakeClock } from '@tutoring/testkit'
import { createTestContext, type TestContext } from './support/harness'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

type Reminder = { to: string; data: { lessonId: number; offsetMinutes: number; start: string; startLocal: string; timeZone: string; manageUrl: string } }
type Push = { userId: number; title: string; body: string; data: { type: string; lesson_id: number; offset_minutes: number } }

/** 10:00 on a day in the tutor's and student's zones, as the reminder says it. */
const wallClock = (at: Date, zone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at)

/**
 * Issue 21 item 3, CONTRACT §16 "Reminders": each committed lesson reminds its booker and its
 * tutor by email and push at each offset of LESSON_REMINDERS before the start, in each one's
 * time zone with the management link; an offset already past at commit is skipped; a
 * rescheduled lesson is reminded at its new time, a cancelled one never; once each, however
 * many runs race.
 */
describe.each(testDatabaseKinds())('lesson reminders on %s', (kind) => {
  let t: TestContext
  const t0 = new Date(Math.ceil(Date.now() / HOUR) * HOUR)
  const clock = fakeClock(t0)

  beforeAll(async () => {
    t = await createTestContext(kind, { LESSON_REMINDERS: '1440,60' }, { clock })
  })
  afterAll(async () => {
    await t?.close()
  })

  const reminders = async () => (await t.outbox({ kind: 'email', topic: 'lesson_reminder' })).map((m) => m.payload as Reminder)
  const pushes = async () => (await t.outbox({ kind: 'push' })).map((m) => m.payload as Push).filter((p) => p.data.type === 'lesson_reminder')
  const sent = async () => (await reminders()).map((r) => `${r.data.lessonId}:${r.data.offsetMinutes}:${r.to}`).sort()
  const at = async (time: Date) => {
    clock.set(time)
    return sendDueReminders(t.services.bookings)
  }

  it('queues email and push at each offset, skips what was past at commit, follows a reschedule, never reminds a cancelled lesson, once each', async () => {
    const tutor = await t.bookableTutor()
    await t.db.updateTable('profiles').set({ time_zone: 'America/New_York' }).where('user_id', '=', tutor.user.id).execute()
    const { teachId, levelId } = await t.openOnlineTeach(tutor, '30.00')
    const student = await t.register('student')
    const book = async (start: Date) => {
      const booked = await t.request<{ data: { id: number; lesson: { id: number } } }>('POST', '/api/bookings', {
        token: student.token,
        body: { teach_id: teachId, subject_level_id: levelId, lesson_type: 3, start: start.toISOString(), finish: new Date(start.getTime() + HOUR).toISOString() },
      })
      expect(booked.status, booked.text).toBe(201)
      const paid = await t.request('POST', '/api/payments/pay', { token: student.token, body: { booking_id: booked.body.data.id, payment_method: 'pm_card_visa' } })
      expect(paid.status, paid.text).toBe(200)
      return { bookingId: booked.body.data.id, lessonId: booked.body.data.lesson.id, start }
    }

    const a = await book(new Date(t0.getTime() + 3 * DAY))
    const cancelled = await book(new Date(t0.getTime() + 3 * DAY + 2 * HOUR))
    expect((await t.request('PUT', `/api/bookings/${cancelled.bookingId}/cancel`, { token: student.token })).status).toBe(200)
    const moved = await book(new Date(t0.getTime() + 3 * DAY + 4 * HOUR))
    const newStart = new Date(t0.getTime() + 4 * DAY)
    const proposed = await t.request('PUT', `/api/lessons/${moved.lessonId}/edit`, {
      token: tutor.token,
      body: { suggested_start: newStart.toISOString(), suggested_finish: new Date(newStart.getTime() + HOUR).toISOString() },
    })
    expect(proposed.status, proposed.text).toBe(200)
    expect((await t.request('PUT', `/api/lessons/${moved.lessonId}/approve`, { token: student.token })).status).toBe(200)
    // Booked 5 hours ahead: the day-before reminder was already past when it was paid.
    const soon = await book(new Date(t0.getTime() + 5 * HOUR))
    const unpaid = await t.request<{ data: { id: number } }>('POST', '/api/bookings', {
      token: student.token,
      body: { teach_id: teachId, subject_level_id: levelId, lesson_type: 3, start: new Date(t0.getTime() + 2 * DAY).toISOString(), finish: new Date(t0.getTime() + 2 * DAY + HOUR).toISOString() },
    })
    expect(unpaid.status).toBe(201)

    expect(await at(t0)).toEqual({ sent: 0 })
    expect(await sent()).toEqual([])

    // Two runs at once (two instances): one reminder each.
    clock.set(new Date(soon.start.getTime() - 60 * MINUTE + MINUTE))
    const raced = await Promise.all([sendDueReminders(t.services.bookings), sendDueReminders(t.services.bookings)])
    expect(raced.map((r) => r.sent).sort()).toEqual([0, 1])
    expect(await sent()).toEqual([`${soon.lessonId}:60:${student.email}`, `${soon.lessonId}:60:${tutor.email}`].sort())
    expect(await at(clock.now())).toEqual({ sent: 0 })

    // The day before A, in each recipient's zone, with the management link; a push to each.
    await at(new Date(a.start.getTime() - DAY + MINUTE))
    const dayBefore = (await reminders()).filter((r) => r.data.lessonId === a.lessonId)
    expect(dayBefore.map((r) => [r.to, r.data.offsetMinutes, r.data.timeZone, r.data.startLocal])).toEqual([
      [student.email, 1440, 'Europe/London', wallClock(a.start, 'Europe/London')],
      [tutor.email, 1440, 'America/New_York', wallClock(a.start, 'America/New_York')],
    ])
    for (const r of dayBefore) expect(r.data.manageUrl).toMatch(new RegExp(`^http://api\\.test/api/bookings/${a.bookingId}\\?secret=`))
    const pushed = (await pushes()).filter((p) => p.data.lesson_id === a.lessonId)
    expect(pushed.map((p) => p.userId).sort()).toEqual([student.user.id, tutor.user.id].sort())
    expect(pushed[0]!.body).toContain(wallClock(a.start, pushed[0]!.userId === tutor.user.id ? 'America/New_York' : 'Europe/London'))

    // The moved lesson's old day-before time and the cancelled lesson's hour before: nothing.
    expect(await at(new Date(moved.start.getTime() - DAY + MINUTE))).toEqual({ sent: 0 })
    expect(await at(new Date(a.start.getTime() - 60 * MINUTE + MINUTE))).toEqual({ sent: 1 })
    expect(await at(new Date(newStart.getTime() - DAY + MINUTE))).toEqual({ sent: 1 })
    expect(await at(new Date(cancelled.start.getTime() - 60 * MINUTE + MINUTE))).toEqual({ sent: 0 })
    expect(await at(new Date(newStart.getTime() - 60 * MINUTE + MINUTE))).toEqual({ sent: 1 })
    await at(new Date(newStart.getTime() + MINUTE))

    const each = (lessonId: number, offset: number) => [`${lessonId}:${offset}:${student.email}`, `${lessonId}:${offset}:${tutor.email}`]
    expect(await sent()).toEqual([...each(soon.lessonId, 60), ...each(a.lessonId, 1440), ...each(a.lessonId, 60), ...each(moved.lessonId, 1440), ...each(moved.lessonId, 60)].sort())
    const movedReminder = (await reminders()).find((r) => r.data.lessonId === moved.lessonId)!
    expect(movedReminder.data.start).toBe(newStart.toISOString())
    expect(await pushes()).toHaveLength(10)

    // Delivered: the tutor's reads the start in New York time, with the management link.
    await t.infra.deliverOutbox(500)
    const folder = path.join(t.infra.config.DATA_DIR, 'mail')
    // Quoted-printable, as written: soft line breaks joined and `=3D` read as `=`.
    const unfold = (text: string) => text.replace(/=\r?\n/g, '').replace(/=3D/g, '=')
    const mails = await Promise.all((await readdir(folder)).map(async (file) => unfold(await readFile(path.join(folder, file), 'utf8'))))
    const tutorsReminders = mails.filter((m) => m.includes('Reminder:') && m.includes(`To: ${tutor.email}`) && m.includes(`/api/bookings/${a.bookingId}?secret=`))
    expect(tutorsReminders).toHaveLength(2)
    for (const mail of tutorsReminders) expect(mail).toContain(`${wallClock(a.start, 'America/New_York')} (America/New_York)`)
  }, 120_000)
})
