import { readdirSync, readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

/**
 * Four projects, all run by `pnpm test`: `quick` (`pnpm test:quick`) is every test beside the
 * source that opens no database (the domain's, and the adapters' and HTTP's unit tests);
 * `main` is the rest; `security` and `reliability` are the attack and fault suites
 * (`pnpm test:security`, `pnpm test:reliability`), one folder each, reported one line per
 * finding class or scenario by test/support/findings-reporter.ts.
 */
const SUITES = { security: 'packages/*/test/security/**/*.test.ts', reliability: 'packages/*/test/reliability/**/*.test.ts' }

/** A test file that names a test database (or opens one) is not quick, wherever it lives. */
const OPENS_A_DATABASE = /\b(createTestDatabase|testDatabaseKinds|openPGlite|openPostgres|createTestContext)\b/

const QUICK = readdirSync('packages')
  .flatMap((pkg) => readdirSync(`packages/${pkg}/src`, { recursive: true, encoding: 'utf8' }).map((file) => `packages/${pkg}/src/${file}`))
  .filter((file) => file.endsWith('.test.ts') && !OPENS_A_DATABASE.test(readFileSync(file, 'utf8')))

export default defineConfig({
  // Workspace packages resolve to their TypeScript sources (the `source` export condition),
  // so tests never need a build.
  ssr: { resolve: { conditions: ['source', 'node', 'development|production'] } },
  test: {
    env: { TZ: 'UTC' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker process runs file after file without loading everything again: the app, the SDKs
    // and PGlite's compiled WebAssembly load once per worker, not once per file (half the CPU
    // of the whole run). Each file still builds its own app and database, and nothing in the
    // code under test keeps state in a module; a test that changes the process (environment,
    // spies, listeners) puts it back.
    isolate: false,
    // Vitest's default is one worker per core but one; on a 2-core machine that is a single
    // worker, idle while its tests wait on sockets, child processes and timers.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { extends: true, test: { name: 'quick', include: QUICK } },
      {
        extends: true,
        test: {
          name: 'main',
          include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'examples/*/*.test.ts'],
          exclude: ['**/node_modules/**', ...QUICK, ...Object.values(SUITES)],
        },
      },
      // The attack and fault suites keep a process per file: they measure this process's memory
      // peak, kill and restart what it talks to, and stop servers by signal, which a process
      // shared with other files would blur.
      ...Object.entries(SUITES).map(([name, include]) => ({ extends: true as const, test: { name, include: [include], isolate: true } })),
    ],
  },
})
