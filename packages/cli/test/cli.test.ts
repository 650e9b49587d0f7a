import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { argon2Hasher, openPGlite, openPostgres, type DatabaseHandle, type DatabaseKind } from '@tutoring/adapters'
import { createEmptyServerDatabase, testDatabaseKinds } from '@tutoring/adapters/testing'
import { runCli } from '../src/index'

type Db = DatabaseHandle['db']
type Run = { code: number; out: string[]; err: string[] }

/** A data dir (and, on the server, an empty database) of its own: what a fresh install has. */
async function freshInstall(kind: DatabaseKind) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'tutoring-cli-'))
  const server = kind === 'postgres' ? await createEmptyServerDatabase() : undefined
  const env: Record<string, string> = { DATA_DIR: dataDir, ...(server ? { DATABASE_URL: server.url } : {}) }
  const run = async (...argv: string[]): Promise<Run> => {
    const out: string[] = []
    const err: string[] = []
    const code = await runCli(argv, { env, out: (l) => out.push(l), err: (l) => err.push(l) })
    return { code, out, err }
  }
  /** Opens the same database as the CLI, after the CLI has closed it (PGlite has one owner). */
  const inspect = async <T>(work: (db: Db) => Promise<T>): Promise<T> => {
    const handle = server ? await openPostgres(server.url) : await openPGlite(path.join(dataDir, 'pglite'))
    try {
      return await work(handle.db)
    } finally {
      await handle.close()
    }
  }
  const remove = async () => {
    await server?.drop()
    await rm(dataDir, { recursive: true, force: true })
  }
  return { env, dataDir, run, inspect, remove }
}

type Install = Awaited<ReturnType<typeof freshInstall>>

const expectOneLineFailure = (result: Run, code: number, pattern: RegExp) => {
  expect(result.code).toBe(code)
  expect(result.err).toHaveLength(1)
  expect(result.err[0]).toMatch(pattern)
}

describe.each(testDatabaseKinds())('tutoring CLI on %s', (kind) => {
  // Each test runs the CLI as a process several times (start-up, PGlite, every migration):
  // seconds alone, more on a loaded 2-core machine.
  describe('on an empty database', { timeout: 90_000 }, () => {
    let install: Install
    beforeEach(async () => {
      install = await freshInstall(kind)
    })
    afterEach(() => install.remove())

    it('seed refuses an unmigrated database; migrate applies every migration once, then finds nothing to do', async () => {
      expectOneLineFailure(await install.run('seed'), 1, /^tutoring seed: .*run `tutoring migrate` first/)
      const first = await install.run('migrate')
      expect(first.code).toBe(0)
      expect(first.err).toEqual([])
      expect(first.out[0]).toMatch(/^applied \d+ migration\(s\): 2026_11_22_000100_create_accounts/)
      expect(await install.inspect((db) => db.selectFrom('users').select('id').execute())).toEqual([])
      const second = await install.run('migrate')
      expect(second).toEqual({ code: 0, out: ['the schema is already up to date'], err: [] })
    })

    it('migrate:status lists what is pending; migrate --down reverts the latest migration, and migrate applies it again', async () => {
      const pending = await install.run('migrate:status')
      expect(pending.code).toBe(0)
      expect(pending.out[0]).toMatch(/^pending +2026_11_22_000100_create_accounts$/)
      const count = pending.out.length - 1
      expect(pending.out.at(-1)).toBe(`${count} of ${count} migrations pending`)
      expect((await install.run('migrate')).code).toBe(0)
      const applied = await install.run('migrate:status')
      expect(applied.out.at(-1)).toBe(`all ${count} migrations applied`)
      const latest = applied.out.at(-2)!.split(/\s+/).at(-1)!
      expect(applied.out.at(-2)).toMatch(/^applied \d{4}-\d{2}-\d{2}T/)

      expect(await install.run('migrate', '--down')).toEqual({ code: 0, out: [`reverted ${latest}`], err: [] })
      expect((await install.run('migrate:status')).out.slice(-2)).toEqual([`${'pending'.padEnd(33)}${latest}`, `1 of ${count} migrations pending`])
      expect(await install.run('migrate')).toEqual({ code: 0, out: [`applied 1 migration(s): ${latest}`], err: [] })
    })

    it('seed --demo refuses a count that is not a number; seed adds the reference data once', async () => {
      expect((await install.run('migrate')).code).toBe(0)
      expectOneLineFailure(await install.run('seed', '--demo', 'lots'), 2, /--demo takes a whole number/)
      expectOneLineFailure(await install.run('seed', '--demo', '1000001'), 2, /--demo takes a whole number/)
      expect(await install.inspect((db) => db.selectFrom('subjects').select('id').execute())).toEqual([])
      expect(await install.run('seed')).toEqual({ code: 0, out: ['reference data is in place'], err: [] })
      const counts = (db: Db) =>
        Promise.all(
          (['subjects', 'subject_levels', 'exam_boards', 'countries', 'languages', 'lesson_locations', 'cancellation_policies', 'service_notices'] as const).map(
            async (table) => (await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
          ),
        )
      const before = await install.inspect(counts)
      expect(before.every((n) => Number(n) > 0)).toBe(true)
      expect((await install.run('seed')).code).toBe(0)
      expect(await install.inspect(counts)).toEqual(before)
      const groups = await install.inspect((db) => db.selectFrom('subjects').select('group').distinct().execute())
      expect(groups.map((g) => g.group).sort()).toEqual(['ACADEMIC', 'CUSTOM', 'PROFESSIONAL'])
    })
  })

  // outbox:retry alone runs nine commands, each opening the database: over 20 s on an idle 2-core machine.
  describe('on a migrated database', { timeout: 90_000 }, () => {
    let install: Install
    beforeAll(async () => {
      install = await freshInstall(kind)
      expect((await install.run('migrate')).code).toBe(0)
      expect((await install.run('seed')).code).toBe(0)
    })
    afterAll(() => install.remove())

    const staff = ['--password', 'staff password 1', '--firstname', 'Grace', '--lastname', 'Hopper']

    it('seed --demo N adds N tutors that search can find', async () => {
      const result = await install.run('seed', '--demo', '25')
      expect(result.err).toEqual([])
      expect(result.code).toBe(0)
      expect(result.out[1]).toMatch(/^added 25 searchable demo tutor\(s\)/)
      const searchable = await install.inspect((db) => db.selectFrom('tutor_search').select('tutor_id').where('searchable', '=', true).execute())
      expect(searchable).toHaveLength(25)
    })

    it('seed --demo N reports its progress to a terminal, and only there', async () => {
      const progress: string[] = []
      const out: string[] = []
      const code = await runCli(['seed', '--demo', '3'], { env: install.env, out: (l) => out.push(l), err: () => undefined, progress: (text) => progress.push(text) })
      expect(code).toBe(0)
      expect(progress[0]).toMatch(/^loaded 0 of 3 demo tutors \(0 %, \d+ s\)$/)
      expect(progress.at(-1)).toMatch(/^loaded 3 of 3 demo tutors \(100 %, \d+ s\)$/)
      expect(out.join('\n')).not.toContain('loaded')
    })

    it('user:create makes an internal user with a verified email and a hashed password', async () => {
      const result = await install.run('user:create', '--email', ' Grace@Example.com', '--role', 'internal', ...staff)
      expect(result.err).toEqual([])
      expect(result.code).toBe(0)
      expect(result.out).toEqual([expect.stringMatching(/^created internal user \d+: grace@example\.com \(username grace\.hopper\)$/)])
      const row = await install.inspect((db) => db.selectFrom('users').selectAll().where('email', '=', 'grace@example.com').executeTakeFirstOrThrow())
      expect(row).toMatchObject({ role_id: 200, firstname: 'Grace', lastname: 'Hopper', deleted_at: null })
      expect(row.email_verified_at).toBeInstanceOf(Date)
      expect(row.password_hash).not.toContain('staff password 1')
      expect(await argon2Hasher().verify(row.password_hash, 'staff password 1')).toBe(true)
    })

    it.each(['tutor', 'student', 'parent'])('user:create makes a %s', async (role) => {
      const result = await install.run('user:create', '--email', `${role}@example.com`, '--role', role, ...staff)
      expect(result.code).toBe(0)
      const row = await install.inspect((db) => db.selectFrom('users').select('role_id').where('email', '=', `${role}@example.com`).executeTakeFirstOrThrow())
      expect(row.role_id).toBe({ tutor: 3, student: 1, parent: 2 }[role])
    })

    it('user:create refuses a taken email with one line and adds nobody', async () => {
      expect((await install.run('user:create', '--email', 'twice@example.com', '--role', 'student', ...staff)).code).toBe(0)
      const again = await install.run('user:create', '--email', 'TWICE@example.com', '--role', 'parent', ...staff)
      expectOneLineFailure(again, 1, /^tutoring user:create: email: has already been taken$/)
      const rows = await install.inspect((db) => db.selectFrom('users').select('role_id').where('email', '=', 'twice@example.com').execute())
      expect(rows).toEqual([{ role_id: 1 }])
    })

    it('user:create refuses bad values with exit status 1 and bad command lines with 2', async () => {
      const base = ['--firstname', 'A', '--lastname', 'B']
      expectOneLineFailure(await install.run('user:create', '--email', 'not-an-email', '--password', 'long enough', '--role', 'student', ...base), 1, /email: must be a valid email address/)
      expectOneLineFailure(await install.run('user:create', '--email', 'a@example.com', '--password', 'short', '--role', 'student', ...base), 1, /password: must be 8 to 128 characters/)
      expectOneLineFailure(await install.run('user:create', '--email', 'a@example.com', '--password', 'long enough', '--role', 'admin', ...base), 1, /role: must be one of internal, tutor, student, parent/)
      expectOneLineFailure(await install.run('user:create', '--email', 'a@example.com'), 2, /missing --password, --role, --firstname, --lastname/)
      expectOneLineFailure(await install.run('user:create', '--email'), 2, /--email/)
      expectOneLineFailure(await install.run('user:create', '--admin'), 2, /Unknown option '--admin'/)
      const nobody = await install.inspect((db) => db.selectFrom('users').select('id').where('email', '=', 'a@example.com').execute())
      expect(nobody).toEqual([])
    })

    it('outbox:work delivers what is due into the mail folder and prints the counts', async () => {
      await install.inspect((db) =>
        db
          .insertInto('outbox')
          .values(['one@example.com', 'two@example.com'].map((to) => ({
            kind: 'email' as const,
            topic: 'verify_email',
            payload: JSON.stringify({ kind: 'email', template: 'verify_email', to, data: { firstname: 'Ada', verifyUrl: 'http://x.test/v' } }),
            dedupe_key: null,
            last_error: null,
            delivered_at: null,
            failed_at: null,
            available_at: new Date(),
          })))
          .execute(),
      )
      expect(await install.run('outbox:work')).toEqual({ code: 0, out: ['delivered 2, failed 0'], err: [] })
      const files = await readdir(path.join(install.dataDir, 'mail'))
      expect(files).toHaveLength(2)
      const mails = await Promise.all(files.map((f) => readFile(path.join(install.dataDir, 'mail', f), 'utf8')))
      expect(mails.some((m) => /^To: one@example\.com$/m.test(m))).toBe(true)
      expect(await install.run('outbox:work')).toEqual({ code: 0, out: ['delivered 0, failed 0'], err: [] })
      const undelivered = await install.inspect((db) => db.selectFrom('outbox').select('id').where('delivered_at', 'is', null).execute())
      expect(undelivered).toEqual([])
    })

    it('outbox:failed lists a message that keeps failing; outbox:retry re-drives it, by id or --all, until it is delivered', async () => {
      const failing = { template: 'no_such_template', to: 'stuck@example.com', data: {} }
      const id = await install.inspect(async (db) => {
        const row = await db
          .insertInto('outbox')
          .values({ kind: 'email', topic: failing.template, payload: JSON.stringify({ kind: 'email', ...failing }), dedupe_key: null, attempts: 11, last_error: 'no email template named no_such_template', delivered_at: null, failed_at: new Date(), available_at: new Date(Date.now() + 3_600_000) })
          .returning('id')
          .executeTakeFirstOrThrow()
        return row.id
      })
      const listed = await install.run('outbox:failed')
      expect(listed.code).toBe(0)
      expect(listed.out[0]).toMatch(/^id\tkind\ttopic\tattempts/)
      expect(listed.out.find((l) => l.startsWith(`${id}\t`))).toMatch(new RegExp(`^${id}\temail\tno_such_template\t11\t.*no email template named no_such_template$`))

      expectOneLineFailure(await install.run('outbox:retry'), 2, /either one message id, payment:ID or --all/)
      expectOneLineFailure(await install.run('outbox:retry', String(id), '--all'), 2, /either one message id, payment:ID or --all/)
      expectOneLineFailure(await install.run('outbox:retry', 'x'), 2, /not a message id/)
      expectOneLineFailure(await install.run('outbox:retry', '999999'), 1, /no undelivered message 999999/)
      expectOneLineFailure(await install.run('outbox:retry', 'payment:999999'), 1, /no failing payment 999999/)

      const again = await install.run('outbox:retry', String(id))
      // The counts are of what was retried, and add up to it; the same pass's other work is counted apart.
      expect(again.out).toEqual([expect.stringMatching(/^retried 1: delivered 0, still queued 1(; other due messages in the same pass: delivered \d+, failed \d+)?$/)])
      expectOneLineFailure(again, 1, /1 of 1 failed again; they stay queued/)
      const kept = await install.inspect((db) => db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow())
      expect(kept).toMatchObject({ attempts: 12, delivered_at: null })
      expect(kept.failed_at).toBeInstanceOf(Date)

      // The cause is fixed (here: the message made deliverable); --all sends it now.
      await install.inspect((db) =>
        db.updateTable('outbox').set({ topic: 'verify_email', payload: JSON.stringify({ kind: 'email', template: 'verify_email', to: failing.to, data: { firstname: 'Ada', verifyUrl: 'http://x.test/v' } }) }).where('id', '=', id).execute(),
      )
      const all = await install.run('outbox:retry', '--all')
      expect(all.code).toBe(0)
      expect(all.out).toEqual([expect.stringMatching(/^retried 1: delivered 1, still queued 0(; other due messages in the same pass: delivered \d+, failed 0)?$/)])
      expect(await install.run('outbox:failed')).toEqual({ code: 0, out: ['no failing messages'], err: [] })
      const mails = await Promise.all((await readdir(path.join(install.dataDir, 'mail'))).map((f) => readFile(path.join(install.dataDir, 'mail', f), 'utf8')))
      expect(mails.filter((m) => /^To: stuck@example\.com$/m.test(m))).toHaveLength(1)
    })

    it('purge:expired forgets push callbacks past 30 days, and keeps the rest', async () => {
      const day = 86_400_000
      await install.inspect((db) =>
        db
          .insertInto('webhook_events')
          .values([
            { source: 'push', event_id: 'old', type: 'delivered', received_at: new Date(Date.now() - 31 * day) },
            { source: 'push', event_id: 'recent', type: 'delivered', received_at: new Date(Date.now() - 29 * day) },
            { source: 'stripe', event_id: 'evt_old', type: 'charge.succeeded', received_at: new Date(Date.now() - 400 * day) },
          ])
          .execute(),
      )
      expect(await install.run('purge:expired')).toEqual({ code: 0, out: ['idempotency keys 0, unclaimed uploads 0, push callbacks 1'], err: [] })
      expect((await install.inspect((db) => db.selectFrom('webhook_events').select('event_id').orderBy('event_id').execute())).map((r) => r.event_id)).toEqual(['evt_old', 'recent'])
    })

    it('search:compact-counts folds the online count deltas into one row per subject and weekday, sums unchanged', async () => {
      const perKey = () =>
        install.inspect(async (db) => {
          const counts = await db.selectFrom('tutor_search_online_counts').select(['subject_id', 'weekday']).select((eb) => [eb.fn.sum<string>('n').as('n'), eb.fn.countAll<string>().as('rows')]).groupBy(['subject_id', 'weekday']).orderBy('subject_id').orderBy('weekday').execute()
          const online = await db.selectFrom('tutor_search_online').select(['subject_id', 'weekday']).select((eb) => eb.fn.countAll<string>().as('n')).groupBy(['subject_id', 'weekday']).orderBy('subject_id').orderBy('weekday').execute()
          return { counts, online }
        })
      // Three of the demo tutors seeded above leave search: each statement writes a delta beside the seed's folded rows.
      const leaving = await install.inspect((db) => db.selectFrom('tutor_search_online').select('tutor_id').distinct().orderBy('tutor_id').limit(3).execute())
      expect(leaving).toHaveLength(3)
      for (const { tutor_id } of leaving) await install.inspect((db) => db.updateTable('tutor_search').set({ searchable: false }).where('tutor_id', '=', tutor_id).execute())
      expect((await perKey()).counts.some((key) => Number(key.rows) > 1)).toBe(true)

      const folded = await install.run('search:compact-counts')
      expect(folded.code).toBe(0)
      expect(folded.out).toEqual([expect.stringMatching(/^count rows folded [1-9]\d*$/)])
      const after = await perKey()
      expect(after.counts.every((key) => Number(key.rows) === 1)).toBe(true)
      expect(after.counts.map((key) => [key.subject_id, key.weekday, Number(key.n)])).toEqual(after.online.map((key) => [key.subject_id, key.weekday, Number(key.n)]))
      expect(await install.run('search:compact-counts')).toEqual({ code: 0, out: ['count rows folded 0'], err: [] })
    })

    it('lessons:expire-reschedules, lessons:remind and payments:capture-due run and report what they did', async () => {
      expect(await install.run('lessons:expire-reschedules')).toEqual({ code: 0, out: ['expired 0, lessons counted in hours taught 0, taken back 0'], err: [] })
      expect(await install.run('lessons:remind')).toEqual({ code: 0, out: ['lesson reminders queued 0'], err: [] })
      expect(await install.run('payments:capture-due')).toEqual({
        code: 0,
        out: ['authorized 0, failed 0, captured 0, skipped 0, retrying later 0, holds expired 0, unconfirmed cancelled 0, transfers queued 0'],
        err: [],
      })
    })
  })
})

describe('tutoring CLI', () => {
  const run = async (argv: string[], env: Record<string, string>) => {
    const out: string[] = []
    const err: string[] = []
    const code = await runCli(argv, { env, out: (l) => out.push(l), err: (l) => err.push(l) })
    return { code, out, err }
  }

  it('fails with one line when the database server cannot be reached', async () => {
    const result = await run(['migrate'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' })
    expectOneLineFailure(result, 1, /^tutoring migrate: cannot reach the database server: .*ECONNREFUSED/)
  })

  it('refuses an unknown command, no command and an invalid configuration', async () => {
    expectOneLineFailure(await run(['frobnicate'], {}), 2, /unknown command "frobnicate"/)
    expectOneLineFailure(await run([], {}), 2, /no command given/)
    expectOneLineFailure(await run(['migrate'], { PORT: 'eighty' }), 1, /invalid configuration: PORT/)
  })

  it('lists every command of the contract in its help', async () => {
    const help = await run(['help'], {})
    expect(help.code).toBe(0)
    for (const name of ['migrate', 'seed', 'user:create', 'outbox:work', 'outbox:failed', 'outbox:retry', 'lessons:expire-reschedules', 'payments:capture-due', 'purge:expired', 'search:compact-counts']) {
      expect(help.out.join('\n')).toContain(name)
    }
  })

  it('outbox:work --loop keeps delivering until it is stopped', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'tutoring-cli-'))
    try {
      const env = { DATA_DIR: dataDir }
      expect((await run(['migrate'], env)).code).toBe(0)
      const stop = new AbortController()
      const out: string[] = []
      const running = runCli(['outbox:work', '--loop', '--interval', '0.05'], { env, out: (l) => out.push(l), err: () => undefined, signal: stop.signal })
      // Stopped once the loop is running (opening the database first can take longer than any fixed sleep on a busy machine), a few intervals in.
      for (let waited = 0; out.length === 0 && waited < 30_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20))
      await new Promise((resolve) => setTimeout(resolve, 200))
      stop.abort()
      expect(await running).toBe(0)
      expect(out[0]).toMatch(/until stopped/)
      expect(out.at(-1)).toBe('stopped')
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})

describe('the CLI as its own process', () => {
  // The sources through tsx, as `pnpm cli` runs them; the built bin has its own test (production-build.test.ts).
  const main = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/main.ts')
  const exec = promisify(execFile)
  let dataDir: string
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tutoring-bin-'))
  })
  afterAll(() => rm(dataDir, { recursive: true, force: true }))

  const spawn = async (args: string[]) => {
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir }
    try {
      const { stdout, stderr } = await exec(process.execPath, ['--conditions=source', '--import', 'tsx', main, ...args], { env })
      return { code: 0, stdout, stderr }
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string }
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
    }
  }

  it('runs as its own process and exits 0', async () => {
    const result = await spawn(['help'])
    expect(result).toMatchObject({ code: 0, stderr: '' })
    expect(result.stdout).toMatch(/^usage: tutoring <command>/)
  })

  it('exits non-zero with exactly one line on stderr', async () => {
    const result = await spawn(['user:create', '--email', 'x@example.com'])
    expect(result.code).toBe(2)
    expect(result.stderr).toBe('tutoring user:create: missing --password, --role, --firstname, --lastname\n')
  })
})
