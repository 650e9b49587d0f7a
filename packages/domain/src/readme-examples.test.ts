import { readdirSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'

/**
 * Each public context's README.md shows one example (its one ```ts block) and what it prints
 * (its one ```text block). The example is the file README.example.ts beside it, which this test
 * runs, so the README's code and output cannot drift from what the package does.
 */
const EXAMPLES = {
  availability: () => import('./availability/README.example'),
  schedule: () => import('./schedule/README.example'),
  search: () => import('./search/README.example'),
  pricing: () => import('./pricing/README.example'),
  lesson: () => import('./lesson/README.example'),
  booking: () => import('./booking/README.example'),
  subscriptions: () => import('./subscriptions/README.example'),
  verification: () => import('./verification/README.example'),
} satisfies Record<string, () => Promise<unknown>>

const SRC = new URL('./', import.meta.url)
const read = (path: string): string => readFileSync(new URL(path, SRC), 'utf8')
const blocks = (markdown: string, language: string): string[] =>
  [...markdown.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((match) => match[1] ?? '')

afterEach(() => {
  vi.restoreAllMocks()
})

describe("the contexts' READMEs", () => {
  it('are the ones whose examples this test runs', () => {
    const withReadme = readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && readdirSync(new URL(`${entry.name}/`, SRC)).includes('README.md'))
      .map((entry) => entry.name)
    expect(withReadme.sort()).toEqual(Object.keys(EXAMPLES).sort())
  })

  for (const [context, load] of Object.entries(EXAMPLES)) {
    it(`${context}: shows README.example.ts as it is and prints what the README says`, async () => {
      const readme = read(`${context}/README.md`)
      expect(blocks(readme, 'ts')).toEqual([read(`${context}/README.example.ts`)])
      const [output] = blocks(readme, 'text')
      const printed: string[] = []
      vi.spyOn(console, 'log').mockImplementation((line: unknown) => void printed.push(String(line)))
      await load()
      expect(`${printed.join('\n')}\n`).toBe(output)
    })
  }
})
