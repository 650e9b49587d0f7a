import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { generatedDemoPassword, wantsDemo } from './demo-start'

describe('wantsDemo (CONTRACT §16: the embedded start on an empty DATA_DIR)', () => {
  const dirs: string[] = []
  const dir = async () => {
    const made = await mkdtemp(path.join(tmpdir(), 'tutoring-wants-demo-'))
    dirs.push(made)
    return made
  }
  afterAll(async () => {
    for (const made of dirs) await rm(made, { recursive: true, force: true })
  })

  it('seeds an empty or absent DATA_DIR of the embedded database, unless SEED_DEMO=false', async () => {
    const empty = await dir()
    expect(await wantsDemo({ DATA_DIR: empty, SEED_DEMO: 'true', DATABASE_URL: undefined })).toBe(true)
    expect(await wantsDemo({ DATA_DIR: path.join(empty, 'not-yet'), SEED_DEMO: 'true', DATABASE_URL: undefined })).toBe(true)
    expect(await wantsDemo({ DATA_DIR: empty, SEED_DEMO: 'false', DATABASE_URL: undefined })).toBe(false)
  })

  it('never seeds a server database, nor a DATA_DIR already in use', async () => {
    expect(await wantsDemo({ DATA_DIR: await dir(), SEED_DEMO: 'true', DATABASE_URL: 'postgres://u@127.0.0.1/db' })).toBe(false)
    const used = await dir()
    await writeFile(path.join(used, 'app.key'), 'base64:...')
    expect(await wantsDemo({ DATA_DIR: used, SEED_DEMO: 'true', DATABASE_URL: undefined })).toBe(false)
  })

  it('generates a fresh password of 16 characters', () => {
    const [a, b] = [generatedDemoPassword(), generatedDemoPassword()]
    expect(a).toHaveLength(16)
    expect(a).not.toBe(b)
  })
})
