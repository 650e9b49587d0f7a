import { execFile, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPGlite, repeatableSqlFiles } from '@tutoring/adapters'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const SERVER = path.join(ROOT, 'packages/http/dist/main.js')
const CLI = path.join(ROOT, 'packages/cli/bin/tutoring.mjs')
const exec = promisify(execFile)

/** pnpm as it runs this suite (`pnpm test`), else from the registry as README says. */
const pnpm = (...args: string[]) =>
  process.env.npm_execpath?.includes('pnpm')
    ? exec(process.execPath, [process.env.npm_execpath, ...args], { cwd: ROOT })
    : exec('npx', ['--yes', 'pnpm@10', ...args], { cwd: ROOT })

/** Runs a built entry point with plain node (no tsx, no source condition), as production does. */
async function run(file: string, args: string[], env: Record<string, string>, nodeArgs: string[] = []) {
  try {
    const { stdout, stderr } = await exec(process.execPath, [...nodeArgs, file, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, cwd: ROOT })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

/**
 * From a clone: `pnpm build`, then the built server and CLI with plain node. The rest of the
 * suite runs the TypeScript sources; this is the one place the build itself is tried.
 */
describe('the production build', () => {
  let dataDir: string
  beforeAll(async () => {
    await pnpm('build')
    dataDir = await mkdtemp(path.join(tmpdir(), 'tutoring-build-'))
  }, 180_000)
  afterAll(() => rm(dataDir, { recursive: true, force: true }))

  it('refuses a malformed configuration at start with one JSON line naming each variable', async () => {
    const result = await run(SERVER, [], { DATA_DIR: dataDir, DATABASE_URL: 'nonsense', REDIS_URL: 'localhost:6379' })
    expect(result.code).toBe(1)
    const lines = result.stderr.trimEnd().split('\n')
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 60,
      problems: ['DATABASE_URL must be a postgres:// or postgresql:// URL', 'REDIS_URL must be a redis:// or rediss:// URL'],
    })
  })

  it('serves /healthz, logging each start-up step as it begins, and stops on SIGTERM', async () => {
    // Port 0 and the address from the log: a port probed free beforehand can be taken by another process before the server binds it.
    const server = spawn(process.execPath, [SERVER], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let log = ''
    server.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()))
    server.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)))
    try {
      let status = 0
      let base = ''
      for (let i = 0; i < 600 && status !== 200 && server.exitCode === null; i++) {
        base = /listening on (http:\/\/[\d.:]+)/.exec(log)?.[1] ?? ''
        status = base ? await fetch(`${base}/healthz`).then((r) => r.status, () => 0) : 0
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100))
      }
      expect(status, log).toBe(200)
      const docs = await fetch(`${base}/docs/assets/swagger-ui-bundle.js`)
      expect(docs.status).toBe(200)
      // The district centroids ship beside the adapters' bundle: a postcode outside the sample table is located.
      const found = (await fetch(`${base}/api/addresses/search?postcode=N1%209GU`).then((r) => r.json())) as { data: Array<{ postcode: string }> }
      expect(found.data.map((match) => match.postcode)).toEqual(['N1 9GU'])
    } finally {
      server.kill('SIGTERM')
    }
    expect(await exited).toBe(0)
    const steps = log
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { msg: string }).msg)
    const order = ['opening the embedded database', 'migrating the database', 'seeding the reference data', 'database ready', 'listening on']
    const positions = order.map((start) => steps.findIndex((msg) => msg.startsWith(start)))
    expect(positions.every((p) => p >= 0), steps.join('\n')).toBe(true)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
  }, 120_000)

  it("loads the built domain by every subpath of its exports with plain node, as the other packages import it", async () => {
    const { exports } = JSON.parse(await readFile(path.join(ROOT, 'packages/domain/package.json'), 'utf8')) as { exports: Record<string, unknown> }
    const specifiers = Object.keys(exports).map((subpath) => `@tutoring/domain${subpath.slice(1)}`)
    const load = `for (const s of ${JSON.stringify(specifiers)}) await import(s); console.log(${specifiers.length})`
    // From http, which depends on domain: each subpath resolves to the `import` file the build wrote.
    const { stdout } = await exec(process.execPath, ['--input-type=module', '-e', load], { env: { PATH: process.env.PATH ?? '' }, cwd: path.join(ROOT, 'packages/http') })
    expect(stdout.trim()).toBe(String(specifiers.length))
  })

  it('runs the CLI with plain node; its help loads nothing but the CLI itself', async () => {
    const log = path.join(dataDir, 'resolved.log')
    const hooks = path.join(dataDir, 'log-resolve.mjs')
    // Records every module the process resolves (node's module hooks, Node 20.6 and later).
    await writeFile(
      hooks,
      `import { appendFileSync } from 'node:fs'
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  appendFileSync(${JSON.stringify(log)}, resolved.url + '\\n')
  return resolved
}
`,
    )
    const register = `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(hooks).href)})`
    const help = await run(CLI, ['--help'], { DATA_DIR: dataDir }, ['--import', `data:text/javascript,${encodeURIComponent(register)}`])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/^usage: tutoring <command>/)
    expect(help.stdout).toContain('migrate:status')
    const loaded = (await readFile(log, 'utf8')).split('\n').filter((url) => url.startsWith('file:'))
    const cli = pathToFileURL(path.join(ROOT, 'packages/cli')).href
    expect(loaded.length).toBeGreaterThan(0)
    expect(loaded.filter((url) => !url.startsWith(cli))).toEqual([])

    const status = await run(CLI, ['migrate:status'], { DATA_DIR: dataDir })
    expect(status.stderr).toBe('')
    expect(status.stdout).toMatch(/^applied \d{4}-.*2026_11_22_000100_create_accounts$/m)
    expect(status.stdout.trimEnd().split('\n').at(-1)).toMatch(/^all \d+ migrations applied$/)
  }, 60_000)

  it('applies the live SQL files it ships (`<context>/sql/*.sql`, copied beside the bundle) when it migrates', async () => {
    const dir = path.join(dataDir, 'migrated')
    const migrated = await run(CLI, ['migrate'], { DATA_DIR: dir })
    expect(migrated.stderr).toBe('')
    const database = await openPGlite(path.join(dir, 'pglite'))
    try {
      const recorded = database.db.withTables<{ repeatable_sql: { name: string; checksum: string } }>()
      const rows = await recorded.selectFrom('repeatable_sql').select(['name', 'checksum']).orderBy('name').execute()
      const sources = await repeatableSqlFiles()
      expect(sources.length).toBeGreaterThan(0)
      expect(rows).toEqual(sources.map(({ name, checksum }) => ({ name, checksum })))
    } finally {
      await database.close()
    }
  }, 60_000)
})
