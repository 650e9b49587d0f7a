import { defineConfig } from 'vitest/config'

/**
 * Three projects: `main` is `pnpm test`; `security` and `reliability` are the attack and
 * fault suites (`pnpm test:security`, `pnpm test:reliability`), one folder each, reported
 * one line per finding class or scenario by test/support/findings-reporter.ts.
 */
const SUITES = { security: 'packages/*/test/security/**/*.test.ts', reliability: 'packages/*/test/reliability/**/*.test.ts' }

export default defineConfig({
  // Workspace packages resolve to their TypeScript sources (the `source` export condition),
  // so tests never need a build. The rest is Vitest's default.
  ssr: { resolve: { conditions: ['source', 'node', 'development|production'] } },
  test: {
    env: { TZ: 'UTC' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...Object.values(SUITES)],
        },
      },
      ...Object.entries(SUITES).map(([name, include]) => ({ extends: true as const, test: { name, include: [include] } })),
    ],
  },
})
