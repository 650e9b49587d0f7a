/**
 * The package graph is the architecture (STYLE.md §1): domain imports only its four
 * libraries; packages talk to each other only through their package name (`exports`).
 */
const DOMAIN_ALLOWED = ['zod', 'neverthrow', 'date-fns', 'date-fns-tz']

module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'packages/domain may import only zod, neverthrow, date-fns and date-fns-tz.',
      severity: 'error',
      from: { path: '^packages/domain/src', pathNot: '\\.test\\.ts$' },
      to: {
        dependencyTypesNot: ['local'],
        pathNot: [
          `node_modules/(${DOMAIN_ALLOWED.join('|')})/`,
          '^packages/domain/src',
        ],
      },
    },
    {
      name: 'domain-no-node-builtins',
      severity: 'error',
      from: { path: '^packages/domain/src', pathNot: '\\.test\\.ts$' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'no-deep-imports-across-packages',
      comment: 'Import another package by its name, never a path into its src.',
      severity: 'error',
      from: { path: '^packages/([^/]+)/' },
      to: { path: '^packages/([^/]+)/', pathNot: '^packages/$1/', dependencyTypes: ['local'] },
    },
    {
      name: 'package-graph',
      comment: 'adapters and testkit import domain; http and cli import domain and adapters.',
      severity: 'error',
      from: { path: '^packages/(domain|adapters|testkit)/src' },
      to: { path: '^packages/(http|cli)/' },
    },
    {
      name: 'domain-imports-no-package',
      comment: 'Domain tests may use testkit builders and arbitraries; domain code may not.',
      severity: 'error',
      from: { path: '^packages/domain/', pathNot: '\\.test\\.ts$' },
      to: { path: '^packages/(adapters|http|cli|testkit)/' },
    },
    {
      name: 'cli-runs-without-testkit',
      comment: 'The CLI ships without test helpers (seed --demo uses the seed generator in adapters); its tests may use them.',
      severity: 'error',
      from: { path: '^packages/cli/src' },
      to: { path: '^packages/testkit/' },
    },
    {
      name: 'testkit-reuses-only-the-demo-generator',
      comment: 'testkit draws marketplaces from the seed generator (`@tutoring/adapters/demo`) and nothing else of adapters, so tests that use testkit load no database or SDK.',
      severity: 'error',
      from: { path: '^packages/testkit/' },
      to: { path: '^packages/adapters/', pathNot: '^packages/adapters/src/db/seed/demo-marketplace\\.ts$' },
    },
    {
      name: 'adapters-not-testkit-in-src',
      severity: 'error',
      from: { path: '^packages/adapters/src', pathNot: '\\.test\\.ts$' },
      to: { path: '^packages/testkit/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '(node_modules|\\.data)' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
}
