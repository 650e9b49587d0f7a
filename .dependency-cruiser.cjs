/**
 * The package graph is the architecture (STYLE.md §1): domain imports only its four
 * libraries; packages talk to each other only through their package name (`exports`).
 * Inside domain, the contexts' graph is the table in packages/domain/README.md; http's rooms
 * (packages/http/src/<context>/) follow the same table, and http's and adapters' rooms use only
 * the domain faces (`@tutoring/domain/<context>`) their context's row allows. Another room is
 * reached through its index.ts only, in http and adapters alike.
 */
const fs = require('node:fs')
const path = require('node:path')

const DOMAIN_ALLOWED = ['zod', 'neverthrow', 'date-fns', 'date-fns-tz']
const DOMAIN_SRC = path.join(__dirname, 'packages/domain/src')
const HTTP_SRC = path.join(__dirname, 'packages/http/src')

const foldersOf = (dir) => fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name)

/**
 * The "Contexts" table of the domain README: `| \`context\` | owns | \`a\`, \`b\` |` rows. It
 * must name every context folder and only those, so the table and the code cannot drift.
 */
function readContextTable() {
  const readme = fs.readFileSync(path.join(__dirname, 'packages/domain/README.md'), 'utf8')
  const section = readme.split(/^## /m).find((part) => part.startsWith('Contexts\n'))
  if (!section) throw new Error('packages/domain/README.md has no "## Contexts" section')
  const table = new Map()
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim())
    const name = /^`([a-z-]+)`$/.exec(cells[1] ?? '')
    if (!name) continue
    const imports = [...(cells[3] ?? '').matchAll(/`([a-z-]+)`/g)].map((m) => m[1])
    table.set(name[1], imports)
  }
  const folders = foldersOf(DOMAIN_SRC)
  const missing = folders.filter((f) => !table.has(f))
  const unknown = [...table.keys(), ...[...table.values()].flat()].filter((c) => !folders.includes(c))
  if (missing.length > 0 || unknown.length > 0) {
    throw new Error(`packages/domain/README.md's context table does not match src/: missing ${missing.join(', ') || 'none'}, unknown ${[...new Set(unknown)].join(', ') || 'none'}`)
  }
  return table
}

const contextTable = readContextTable()

const contextRules = [...contextTable].map(([context, imports]) => ({
  name: `domain-context-${context}`,
  comment: `${context} may import only ${imports.join(', ') || 'no other context'} (packages/domain/README.md).`,
  severity: 'error',
  from: { path: `^packages/domain/src/${context}/` },
  to: { path: `^packages/domain/src/(?!(?:${[context, ...imports].join('|')})/)[^/]+/` },
}))

/** Every folder of packages/http/src but platform/ is a room: a context of the table. */
function readHttpRooms(table) {
  return foldersOf(HTTP_SRC)
    .filter((room) => room !== 'platform')
    .map((room) => {
      if (!table.has(room)) {
        throw new Error(`packages/http/src/${room}/ is neither platform/ nor a context of packages/domain/README.md's table`)
      }
      return [room, table.get(room)]
    })
}

/**
 * A room of http or adapters uses the domain's faces (`@tutoring/domain/<context>`) of its own
 * context and of the contexts its row in the table allows, never another's.
 */
function domainFaceRules(pkg, rooms) {
  return rooms.map(([room, imports]) => ({
    name: `${pkg}-room-${room}-domain-faces`,
    comment: `${pkg}'s ${room} room may use the domain faces of ${[room, ...imports].join(', ')} (packages/domain/README.md).`,
    severity: 'error',
    from: { path: `^packages/${pkg}/src/${room}/` },
    to: { path: `^packages/domain/src/(?!(?:${[room, ...imports].join('|')})/)[^/]+/` },
  }))
}

/** The adapters folders named after a context of the table (the others are platform: db, config, crypto, ...). */
function readAdaptersRooms(table) {
  return foldersOf(path.join(__dirname, 'packages/adapters/src'))
    .filter((room) => table.has(room))
    .map((room) => [room, table.get(room)])
}

const adaptersRooms = readAdaptersRooms(contextTable)

const httpRoomRules = readHttpRooms(contextTable).map(([room, imports]) => ({
  name: `http-room-${room}`,
  comment: `http's ${room} room may import platform/ and the rooms of ${imports.join(', ') || 'no other context'} (packages/domain/README.md).`,
  severity: 'error',
  from: { path: `^packages/http/src/${room}/` },
  to: { path: `^packages/http/src/(?!(?:${['platform', room, ...imports].join('|')})/)[^/]+/` },
}))

module.exports = {
  forbidden: [
    ...contextRules,
    {
      name: 'domain-context-index-only',
      comment: "Another context is imported through its index.ts only, never a file inside it.",
      severity: 'error',
      from: { path: '^packages/domain/src/([^/]+)/' },
      to: { path: '^packages/domain/src/[^/]+/', pathNot: ['^packages/domain/src/$1/', '^packages/domain/src/[^/]+/index\\.ts$'] },
    },
    ...httpRoomRules,
    ...domainFaceRules('http', readHttpRooms(contextTable)),
    ...domainFaceRules('adapters', adaptersRooms),
    {
      name: 'http-room-index-only',
      comment: 'Another http room is imported through its index.ts only, never a file inside it.',
      severity: 'error',
      from: { path: '^packages/http/src/([^/]+)/', pathNot: '^packages/http/src/platform/' },
      to: {
        path: '^packages/http/src/[^/]+/',
        pathNot: ['^packages/http/src/$1/', '^packages/http/src/platform/', '^packages/http/src/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'adapters-room-index-only',
      comment: "Another adapters room (a context's folder) is imported through its index.ts only, never a file inside it.",
      severity: 'error',
      from: { path: `^packages/adapters/src/(${adaptersRooms.map(([room]) => room).join('|')})/` },
      to: {
        path: `^packages/adapters/src/(?:${adaptersRooms.map(([room]) => room).join('|')})/`,
        pathNot: ['^packages/adapters/src/$1/', '^packages/adapters/src/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'http-platform-imports-no-room',
      comment: "platform/ serves every room and imports none, but for the error table's fragments (<room>/<room>.errors.ts) that platform/domain-errors.ts combines.",
      severity: 'error',
      from: { path: '^packages/http/src/platform/' },
      to: { path: '^packages/http/src/(?!platform/)[^/]+/', pathNot: '^packages/http/src/([^/]+)/\\1\\.errors\\.ts$' },
    },
    {
      name: 'http-error-rows-import-no-room',
      comment: "A room's error rows import only platform/, so the table that platform builds from them reaches no route.",
      severity: 'error',
      from: { path: '^packages/http/src/[^/]+/[^/]+\\.errors\\.ts$' },
      to: { path: '^packages/http/src/(?!platform/)[^/]+/' },
    },
    {
      name: 'http-composition-on-top',
      comment: 'app.ts, server.ts, main.ts and background-jobs.ts put the rooms together; no room and no platform file imports them.',
      severity: 'error',
      from: { path: '^packages/http/src/[^/]+/' },
      to: { path: '^packages/http/src/[^/]+\\.ts$' },
    },
    {
      name: 'no-circular',
      comment: 'No module may reach itself through its imports, in any package: a cycle makes two parts one.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
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
      comment: 'The CLI ships without test helpers: seed --demo uses the demo generator alone (`@tutoring/testkit/demo`, plain data, no fast-check); its tests may use the rest.',
      severity: 'error',
      from: { path: '^packages/cli/src', pathNot: '\\.test\\.ts$' },
      to: { path: '^packages/testkit/', pathNot: '^packages/testkit/src/demo-marketplace\\.ts$' },
    },
    {
      name: 'testkit-imports-only-the-domain',
      comment: 'testkit is installed by other teams beside the domain alone, so it loads no database or SDK.',
      severity: 'error',
      from: { path: '^packages/testkit/' },
      to: { path: '^packages/(adapters|http|cli)/' },
    },
    {
      name: 'adapters-not-testkit-in-src',
      comment: 'adapters loads the demo generator (`@tutoring/testkit/demo`) and no other test helper outside its tests.',
      severity: 'error',
      from: { path: '^packages/adapters/src', pathNot: '\\.test\\.ts$' },
      to: { path: '^packages/testkit/', pathNot: '^packages/testkit/src/demo-marketplace\\.ts$' },
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
