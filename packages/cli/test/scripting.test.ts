import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPGlite } from '@tutoring/adapters'
import { runCli } from '../src/index'

type Run = { code: number; out: string[]; err: string[] }

const run = async (argv: string[], env: Record<string, string | undefined>): Promise<Run> => {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(argv, { env, out: (l) => out.push(l), err: (l) => err.push(l) })
  return { code, out, err }
}

/** Issue 23 "a CLI that scripts", on the embedded database. */
describe('the CLI for scripts', { timeout: 120_000 }, () => {
  let dataDir: string
  let env: Record<string, string>
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tutoring-script-'))
    env = { DATA_DIR: dataDir }
  })
  afterAll(() => rm(dataDir, { recursive: true, force: true }))

  it('help <command> prints that command\'s help, not the list', async () => {
    const help = await run(['help', 'migrate'], {})
    expect(help.code).toBe(0)
    expect(help.out[0]).toMatch(/^usage: tutoring migrate \[--down\]/)
    expect(help.out.join('\n')).not.toContain('user:create')
    expect((await run(['help', 'outbox:retry'], {})).out[0]).toMatch(/^usage: tutoring outbox:retry ID \| payment:ID \| --all/)
    const unknown = await run(['help', 'frobnicate'], {})
    expect(unknown.code).toBe(2)
    expect(unknown.err).toEqual([expect.stringMatching(/unknown command "frobnicate"/)])
  })

  it('checks every argument before reading the configuration or opening a database', async () => {
    // The configuration is invalid and the database unreachable: a command line that got as
    // far as either would fail with 1 and another message.
    const broken = { PORT: 'eighty', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }
    const cases: Array<[string[], RegExp]> = [
      [['seed', '--demo', 'abc'], /--demo takes a whole number/],
      [['outbox:retry'], /either one message id, payment:ID or --all/],
      [['outbox:retry', 'x'], /not a message id: x/],
      [['outbox:work', '--interval', '0'], /--interval takes seconds/],
      [['user:create', '--email', 'a@example.com'], /missing --password/],
      [['postcodes:import'], /give the CSV file/],
      [['verification:pass'], /give the tutor/],
      [['verification:pass', '7'], /missing --by/],
      [['verification:pass', '7', '--by', 'staff@example.com', '--kind', 'identity'], /--kind takes dbs or qualification/],
    ]
    for (const [argv, message] of cases) {
      const started = Date.now()
      const result = await run(argv, broken)
      expect(result.code, argv.join(' ')).toBe(2)
      expect(result.err, argv.join(' ')).toEqual([expect.stringMatching(message)])
      expect(Date.now() - started).toBeLessThan(1_000)
    }
  })

  it('answers --json with one line of JSON on every listing and status command', async () => {
    const migrated = await run(['migrate', '--json'], env)
    expect(migrated.code).toBe(0)
    expect(migrated.out).toHaveLength(1)
    expect((JSON.parse(migrated.out[0]!) as { applied: string[] }).applied.length).toBeGreaterThan(5)

    const status = await run(['migrate:status', '--json'], env)
    expect(status.out).toHaveLength(1)
    const parsed = JSON.parse(status.out[0]!) as { migrations: Array<{ name: string; applied_at: string | null }>; applied: number; pending: number }
    expect(parsed.pending).toBe(0)
    expect(parsed.applied).toBe(parsed.migrations.length)
    expect(parsed.migrations[0]).toEqual({ name: expect.stringMatching(/^2026_/), applied_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) })

    const seeded = await run(['seed', '--json'], env)
    expect(seeded.out.map((line) => JSON.parse(line) as unknown)).toEqual([{ reference_data: 'in place', demo_tutors: 0 }])

    expect((await run(['outbox:failed', '--json'], env)).out.map((line) => JSON.parse(line) as unknown)).toEqual([{ messages: [], payments: [] }])
    expect((await run(['outbox:work', '--json'], env)).out.map((line) => JSON.parse(line) as unknown)).toEqual([{ delivered: 0, failed: 0 }])
    expect((await run(['payments:capture-due', '--json'], env)).out.map((line) => JSON.parse(line) as unknown)).toEqual([
      { authorized: 0, failed: 0, captured: 0, skipped: 0, retrying: 0, holds_expired: 0, unconfirmed_cancelled: 0, transfers_queued: 0 },
    ])
    expect((await run(['lessons:expire-reschedules', '--json'], env)).out.map((line) => JSON.parse(line) as unknown)).toEqual([
      { expired: 0, hours_taught_counted: 0, hours_taught_withdrawn: 0 },
    ])
    expect((await run(['purge:expired', '--json'], env)).out.map((line) => JSON.parse(line) as unknown)).toEqual([{ idempotency_keys: 0, unclaimed_uploads: 0, push_callbacks: 0 }])
    const user = await run(['user:create', '--json', '--email', 'json@example.com', '--password', 'long enough 1', '--role', 'student', '--firstname', 'Jay', '--lastname', 'Son'], env)
    expect(user.out.map((line) => JSON.parse(line) as unknown)).toEqual([{ id: expect.any(Number), email: 'json@example.com', username: expect.any(String), role: 'student' }])
  })

  it("verification:pass approves a tutor's uploaded documents through the staff review, and refuses what that review refuses", async () => {
    expect((await run(['migrate'], env)).code).toBe(0)
    const create = (email: string, role: string) =>
      run(['user:create', '--json', '--email', email, '--password', 'long enough 1', '--role', role, '--firstname', 'Pat', '--lastname', role], env)
    const staff = JSON.parse((await create('staff@example.com', 'internal')).out[0]!) as { id: number }
    const tutor = JSON.parse((await create('tutor@example.com', 'tutor')).out[0]!) as { id: number }
    await create('student@example.com', 'student')

    const nothingUploaded = await run(['verification:pass', 'tutor@example.com', '--by', 'staff@example.com'], env)
    expect(nothingUploaded.code).toBe(1)
    expect(nothingUploaded.out).toEqual(['dbs: refused, the tutor has uploaded no dbs document yet', 'qualification: refused, the tutor has uploaded no qualification document yet'])
    expect(nothingUploaded.err).toEqual(['tutoring verification:pass: 2 of 2 checks were not approved'])
    const notStaff = await run(['verification:pass', String(tutor.id), '--by', 'student@example.com', '--kind', 'dbs'], env)
    expect(notStaff.out).toEqual([expect.stringMatching(/^dbs: refused, the --by user is not internal staff/)])
    expect((await run(['verification:pass', 'nobody@example.com', '--by', 'staff@example.com'], env)).err).toEqual(['tutoring verification:pass: no user nobody@example.com'])

    // The tutor uploads both documents (as POST /api/v1/verification/dbs and /qualification leave them).
    const pglite = await openPGlite(path.join(dataDir, 'pglite'))
    try {
      for (const kind of ['dbs', 'qualification'] as const) {
        const file = randomUUID()
        await pglite.db.insertInto('files').values({ id: file, owner_id: tutor.id, purpose: kind, name: `${kind}.pdf`, mime_type: 'application/pdf', size: 10, storage_key: `test/${file}` }).execute()
        await pglite.db.insertInto('verifications').values({ user_id: tutor.id, kind, status: 'PENDING', reference: `doc_${kind}_${tutor.id}`, redirect_url: null, document_file_id: file, certificate_number: null, issue_date: null, reviewed_by: null }).execute()
      }
    } finally {
      await pglite.close()
    }
    const approved = await run(['verification:pass', 'tutor@example.com', '--by', 'staff@example.com', '--json'], env)
    expect(approved.err).toEqual([])
    expect(approved.code).toBe(0)
    expect(JSON.parse(approved.out[0]!)).toEqual({ tutor_id: tutor.id, checks: [{ kind: 'dbs', status: 'PASS', error: null }, { kind: 'qualification', status: 'PASS', error: null }] })
    const again = await run(['verification:pass', String(tutor.id), '--by', 'staff@example.com', '--kind', 'dbs'], env)
    expect(again).toMatchObject({ code: 1, out: ['dbs: refused, the check is pass, not waiting for a review'] })
    const reopened = await openPGlite(path.join(dataDir, 'pglite'))
    try {
      const rows = await reopened.db.selectFrom('verifications').select(['kind', 'status', 'reviewed_by']).where('user_id', '=', tutor.id).orderBy('kind').execute()
      expect(rows).toEqual([
        { kind: 'dbs', status: 'PASS', reviewed_by: staff.id },
        { kind: 'qualification', status: 'PASS', reviewed_by: staff.id },
      ])
    } finally {
      await reopened.close()
    }
  })

  it('shows seed --demo progress one line per step when stderr is not a terminal, stdout keeping the answer', async () => {
    const main = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/main.ts')
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--conditions=source', '--import', 'tsx', main, 'seed', '--demo', '3', '--json'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir },
    })
    const steps = stderr.trimEnd().split('\n')
    expect(steps[0]).toMatch(/^loaded 0 of 3 demo tutors \(0 %, \d+ s\)$/)
    expect(steps.at(-1)).toMatch(/^loaded 3 of 3 demo tutors \(100 %, \d+ s\)$/)
    expect(stderr).not.toContain('\r')
    expect(JSON.parse(stdout)).toMatchObject({ demo_tutors: 3 })
  })
})
