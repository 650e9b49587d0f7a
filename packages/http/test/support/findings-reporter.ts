import type { Reporter, TestModule } from 'vitest/node'
import type { Finding } from './findings'

type Line = { finding: Finding; tried: Set<string>; held: Set<string>; figures: Map<string, number>; failed: string[]; tests: number }

/**
 * After `pnpm test:security` or `pnpm test:reliability`: one line per finding class (or
 * fault scenario), naming what was tried, what held and the figures the tests recorded
 * with `recordFinding`. A class with a failing test is marked FAILED with the test's name.
 */
export default class FindingsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const lines = new Map<string, Line>()
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const finding = test.meta().finding
        const state = test.result().state
        const key = finding?.class ?? `(no finding recorded) ${module.moduleId.split('/').slice(-1)[0]}`
        const line: Line = lines.get(key) ?? { finding: finding ?? { class: key, tried: '', held: '' }, tried: new Set(), held: new Set(), figures: new Map(), failed: [], tests: 0 }
        lines.set(key, line)
        line.tests++
        if (state === 'failed') line.failed.push(test.fullName)
        if (!finding) continue
        line.tried.add(finding.tried)
        line.held.add(finding.held)
        for (const [name, value] of Object.entries(finding.figures ?? {})) {
          const before = line.figures.get(name)
          line.figures.set(name, before === undefined ? value : name.includes('peak') ? Math.max(before, value) : before + value)
        }
      }
    }
    if (lines.size === 0) return
    const out = ['', `${lines.size} finding classes (one line each: what was tried | what held | figures summed over its tests, on every database):`]
    for (const [name, line] of [...lines].sort(([a], [b]) => a.localeCompare(b))) {
      const figures = [`${line.tests} test${line.tests === 1 ? '' : 's'}`, ...[...line.figures].map(([k, v]) => `${k} ${Number.isInteger(v) ? v : v.toFixed(1)}`)].join(', ')
      const mark = line.failed.length > 0 ? 'FAILED' : 'held  '
      out.push(
        `  ${mark} ${name}: tried ${[...line.tried].join('; ')} | held: ${[...line.held].join('; ')} | ${figures}` +
          (line.failed.length > 0 ? ` | failing: ${line.failed.join('; ')}` : ''),
      )
    }
    process.stdout.write(`${out.join('\n')}\n`)
  }
}
