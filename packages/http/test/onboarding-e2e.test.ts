import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createInfrastructure, loadConfig, openDatabase, type Infrastructure } from '@tutoring/adapters'
import { SAMPLES, createEmptyServerDatabase, testDatabaseKinds } from '@tutoring/adapters/testing'
import { startServer } from '../src/server'
import { httpCall, type HttpCallOptions } from './support/http-call'

const WEBHOOK_TOKEN = 'onboarding_webhook_token_8d41c7e0a2'
const CLI = fileURLToPath(new URL('../../cli/src/main.ts', import.meta.url))
const run = promisify(execFile)

type One<T> = { data: T }
type Status = { eligible: boolean; reasons: string[] }

/**
 * Issue 4's promise, from outside: an operator installs the service and makes a staff
 * member with the CLI; a new tutor then goes from registration to "eligible" in
 * `GET /api/v1/tutors/status` through a real listening server, using only public routes and
 * the identity provider's webhook, and search finds them.
 */
describe.each(testDatabaseKinds())('a tutor from registration to searchable on %s', (kind) => {
  let dataDir: string
  let drop: (() => Promise<void>) | undefined
  let infra: Infrastructure
  let server: Awaited<ReturnType<typeof startServer>>
  let env: Record<string, string>

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tutoring-onboarding-'))
    const serverDb = kind === 'postgres' ? await createEmptyServerDatabase() : undefined
    drop = serverDb?.drop
    env = {
      DATA_DIR: dataDir,
      APP_URL: 'http://api.test',
      LOG_LEVEL: 'silent',
      BACKGROUND_JOBS: 'off',
      VERIFICATION_WEBHOOK_TOKEN: WEBHOOK_TOKEN,
      ...(serverDb ? { DATABASE_URL: serverDb.url } : {}),
    }
    // The operator's side: the CLI in its own process, owning the database while it runs.
    const cli = (...args: string[]) => run(process.execPath, ['--conditions=source', '--import', 'tsx', CLI, ...args], { env: { ...process.env, ...env, DATABASE_URL: env.DATABASE_URL ?? '' } })
    await cli('migrate')
    await cli('seed')
    await cli('user:create', '--email', 'staff@tutoring.test', '--password', 'staff password 1', '--role', 'internal', '--firstname', 'Sam', '--lastname', 'Staff')
    const config = loadConfig(env)
    infra = await createInfrastructure(config, { database: await openDatabase(config) })
    server = await startServer(infra, 0)
  }, 120_000)
  afterAll(async () => {
    await server?.stop()
    await infra?.close()
    await drop?.()
    await rm(dataDir, { recursive: true, force: true })
  })

  const call = <T>(method: string, url: string, options: HttpCallOptions = {}) => httpCall<T>(server.url, method, url, options)
  const file = (bytes: Uint8Array, name: string) => {
    const form = new FormData()
    form.append('file', new Blob([bytes]), name)
    return form
  }

  it('takes a new tutor through every requirement, each one leaving the reasons list, until search finds them', async () => {
    const registered = await call<One<{ token: string; user: { id: number } }>>('POST', '/api/auth/register', {
      json: { email: 'ada.onboarding@example.com', password: 'a long enough password', firstname: 'Ada', lastname: 'Lovelace', role: 'tutor', country: 'GB' },
    })
    expect(registered.status).toBe(201)
    const { token, user } = registered.body.data
    const reasons = async () => {
      const res = await call<One<Status>>('GET', '/api/v1/tutors/status', { token })
      expect(res.status).toBe(200)
      return res.body.data
    }
    expect((await reasons()).eligible).toBe(false)

    const staffLogin = await call<One<{ token: string }>>('POST', '/api/auth/login', { json: { email: 'staff@tutoring.test', password: 'staff password 1' } })
    expect(staffLogin.status).toBe(200)
    const staff = staffLogin.body.data.token

    // Rule 2: identity through the provider's webhook, documents reviewed by staff.
    const check = await call<One<{ reference: string }>>('POST', '/api/v1/verification/identity', { token })
    expect(check.status).toBe(201)
    const hook = await call('POST', '/api/v1/verification/status', {
      headers: { 'x-webhook-token': WEBHOOK_TOKEN },
      json: { id: 'evt_onboarding_1', type: 'check.completed', data: { reference: check.body.data.reference, status: 'PASS' } },
    })
    expect(hook.status).toBe(200)
    for (const kindOfDocument of ['dbs', 'qualification']) {
      expect((await call('POST', `/api/v1/verification/${kindOfDocument}`, { token, form: file(SAMPLES.pdf, `${kindOfDocument}.pdf`) })).status).toBe(201)
      expect((await call('PUT', `/api/tutors/${user.id}/verifications/${kindOfDocument}`, { token: staff, json: { status: 'PASS' } })).status).toBe(200)
    }
    expect((await reasons()).reasons.filter((r) => /identity|dbs|qualification/.test(r))).toEqual([])

    // Rule 1: picture, video, bio, address, mobile. Rule 3: visible.
    expect((await call('POST', `/api/v1/users/${user.id}/profile/image`, { token, form: file(SAMPLES.png, 'me.png') })).status).toBe(200)
    expect((await call('POST', `/api/v1/users/${user.id}/profile/video`, { token, form: file(SAMPLES.mp4, 'hello.mp4') })).status).toBe(200)
    const profiles = await call<{ data: Array<{ id: number }> }>('GET', '/api/v1/profiles', { token })
    const profileId = profiles.body.data[0]!.id
    expect((await call('PUT', `/api/v1/profiles/${profileId}`, { token, json: { bio: 'Maths and computing, patiently.', is_visible: true, tutoring_experience_months: 38 } })).status).toBe(200)
    expect((await call('POST', '/api/v1/addresses', { token, json: { line1: '12 Analytical Street', city: 'London', postcode: 'SW1A 1AA', country: 'GB' } })).status).toBe(201)
    expect((await call('POST', '/api/v1/mobile-numbers', { token, json: { number: '+447700900123' } })).status).toBe(201)
    const afterProfile = await reasons()
    expect(afterProfile.reasons.filter((r) => /missing|not_visible/.test(r))).toEqual([])

    // Rule 4 and what search shows: something to teach, a weekly schedule, a base.
    const subjects = await call<{ data: Array<{ id: number; subject_level_ids: number[] }> }>('GET', '/api/subjects?per_page=100')
    const subject = subjects.body.data.find((s) => s.subject_level_ids.length > 0)!
    const teach = await call<One<{ id: number }>>('POST', '/api/v1/teaches', {
      token,
      json: { subject_id: subject.id, subject_level_ids: [subject.subject_level_ids[0]], exam_board_ids: [], hourly_rate: '30.00' },
    })
    expect(teach.status).toBe(201)
    for (const day of ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY']) {
      const entry = await call('POST', '/api/v1/day-availabilities', {
        token,
        json: { day, slots: [{ from: '07:00', to: '21:00' }], lesson_types: ['online', 'tutors_home', 'students_home'], buffer_minutes: 0 },
      })
      expect(entry.status).toBe(201)
    }
    expect((await call('POST', '/api/v1/locations', { token, json: { postcode: 'SW1A 1AA', lat: 51.501, lng: -0.1416, travel_distance_miles: 10 } })).status).toBe(201)

    const final = await reasons()
    expect(final).toMatchObject({ eligible: true, reasons: [] })

    const found = await call<{ data: Array<{ id: number; lastname: string; teaching_info: { teach_id: number } }> }>(
      'GET',
      `/api/v1/search?subject_id=${subject.id}&filters[lesson_type]=online`,
    )
    expect(found.status).toBe(200)
    expect(found.body.data.map((item) => ({ id: item.id, lastname: item.lastname, teach: item.teaching_info.teach_id }))).toEqual([
      { id: user.id, lastname: 'L.', teach: teach.body.data.id },
    ])
  }, 120_000)
})
