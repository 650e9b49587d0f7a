import type { ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { launch, SERVER_ENTRY, startServerProcess, stopProcess } from './support/child-server'
import { httpCall } from './support/http-call'

type Account = { role: string; email: string; password: string }
type SearchHit = { id: number; teaching_info: { teach_id: number; subject_level: { id: number } } }
type Day = { date: string; times: Array<{ start: string; finish: string }> }

/** The demo accounts the start printed: one JSON log line each. */
const printedAccounts = (output: string): Account[] =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { demoAccount?: Omit<Account, 'password'>; demoPassword?: string; msg: string })
    .flatMap((entry) => {
      if (!entry.demoAccount || !entry.demoPassword) return []
      // The line a person reads says it all too.
      expect(entry.msg).toBe(`demo ${entry.demoAccount.role}: ${entry.demoAccount.email} password ${entry.demoPassword}`)
      return [{ ...entry.demoAccount, password: entry.demoPassword }]
    })

/**
 * Issue 23 item 1, CONTRACT §16 "Operations": the embedded start on an empty DATA_DIR seeds a
 * demo (tutors found and booked, three accounts printed); a newcomer books and pays with the
 * offline test card. `SEED_DEMO=false` and a second start on the same folder seed nothing.
 */
describe('the embedded start seeds a demo', () => {
  const dirs: string[] = []
  const running: ChildProcess[] = []
  const freshDir = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tutoring-demo-'))
    dirs.push(dir)
    return dir
  }
  const env = (dataDir: string, extra: Record<string, string> = {}) => ({ DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'info', BACKGROUND_JOBS: 'off', ...extra })
  afterAll(async () => {
    for (const child of running) if (child.exitCode === null) child.kill('SIGKILL')
    for (const dir of dirs) await rm(dir, { recursive: true, force: true })
  })

  it('prints three demo accounts; the student finds a tutor, books and pays with pm_card_visa', async () => {
    const dataDir = await freshDir()
    const server = await startServerProcess(env(dataDir))
    running.push(server.child)
    const accounts = printedAccounts(server.output())
    expect(accounts.map((a) => [a.role, a.email])).toEqual([
      ['student', 'student@demo.test'],
      ['tutor', 'tutor@demo.test'],
      ['staff', 'staff@demo.test'],
    ])
    const password = accounts[0]!.password
    expect(password.length).toBeGreaterThanOrEqual(12)

    const call = <T>(method: string, route: string, options: Parameters<typeof httpCall>[3] = {}) => httpCall<T>(server.url, method, route, options)
    const tokens: Record<string, string> = {}
    for (const account of accounts) {
      const login = await call<{ data: { token: string; user: { role: string } } }>('POST', '/api/auth/login', { json: { email: account.email, password } })
      expect(login.status, login.text).toBe(200)
      tokens[account.role] = login.body.data.token
    }

    const found = await call<{ data: SearchHit[] }>('GET', '/api/v1/search?filters[lesson_type]=online&per_page=50')
    expect(found.status, found.text).toBe(200)
    expect(found.body.data.length).toBeGreaterThan(0)

    // The first online slot of the first tutor found that has one in the 14-day window.
    let booking: { hit: SearchHit; start: string; finish: string } | undefined
    for (const hit of found.body.data) {
      const offered = await call<{ data: { availabilities: Day[] } }>('GET', `/api/availabilites?teach_id=${hit.teaching_info.teach_id}&duration=60&lesson_type=3&utc_offset=0`, {
        token: tokens.student,
      })
      expect(offered.status, offered.text).toBe(200)
      const day = offered.body.data.availabilities.find((d) => d.times.length > 0)
      if (day) {
        const start = new Date(`${day.date}T${day.times[0]!.start}:00Z`)
        booking = { hit, start: start.toISOString(), finish: new Date(start.getTime() + 3_600_000).toISOString() }
        break
      }
    }
    expect(booking).toBeDefined()
    const booked = await call<{ data: { id: number } }>('POST', '/api/bookings', {
      token: tokens.student,
      json: { teach_id: booking!.hit.teaching_info.teach_id, subject_level_id: booking!.hit.teaching_info.subject_level.id, lesson_type: 3, start: booking!.start, finish: booking!.finish },
    })
    expect(booked.status, booked.text).toBe(201)
    const paid = await call<{ data: { status: string; client_secret: string } }>('POST', '/api/payments/pay', {
      token: tokens.student,
      json: { booking_id: booked.body.data.id, payment_method: 'pm_card_visa' },
    })
    expect(paid.status, paid.text).toBe(200)
    // Authorised now, or the card saved for the authorisation 6 days before a later lesson.
    expect(['requires_capture', 'succeeded']).toContain(paid.body.data.status)

    // The same folder again: the demo is there already, nothing is added or printed.
    expect((await stopProcess(server)).code).toBe(0)
    const again = await startServerProcess(env(dataDir))
    running.push(again.child)
    expect(printedAccounts(again.output())).toEqual([])
    const relogin = await httpCall<unknown>(again.url, 'POST', '/api/auth/login', { json: { email: 'student@demo.test', password } })
    expect(relogin.status).toBe(200)
    await stopProcess(again)
  }, 240_000)

  it('takes DEMO_PASSWORD, and SEED_DEMO=false seeds nothing', async () => {
    const withPassword = await startServerProcess(env(await freshDir(), { DEMO_PASSWORD: 'a demo password 1' }))
    running.push(withPassword.child)
    expect(printedAccounts(withPassword.output()).map((a) => a.password)).toEqual(['a demo password 1', 'a demo password 1', 'a demo password 1'])
    const login = await httpCall<unknown>(withPassword.url, 'POST', '/api/auth/login', { json: { email: 'staff@demo.test', password: 'a demo password 1' } })
    expect(login.status).toBe(200)
    await stopProcess(withPassword)

    const plain = await startServerProcess(env(await freshDir(), { SEED_DEMO: 'false' }))
    running.push(plain.child)
    expect(printedAccounts(plain.output())).toEqual([])
    const search = await httpCall<{ data: unknown[] }>(plain.url, 'GET', '/api/v1/search')
    expect(search.body.data).toEqual([])
    await stopProcess(plain)
  }, 240_000)

  it('refuses a SEED_DEMO that is not true or false', async () => {
    const refused = await launch(SERVER_ENTRY, [], { ...env(await freshDir(), { SEED_DEMO: 'maybe' }), PORT: '0' }).finished
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('SEED_DEMO must be true or false')
  })
})
