import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const read = (path: string): string => readFileSync(new URL(path, import.meta.url), 'utf8')

describe("the testkit's README", () => {
  it('shows the example property as the file that runs it', () => {
    const blocks = [...read('../README.md').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1])
    expect(blocks).toEqual([read('availability.example.test.ts')])
  })
})
