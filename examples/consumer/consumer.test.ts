import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

/**
 * run.sh as CI runs it: the domain, the testkit and the client packed, installed with npm
 * outside the workspace, typechecked under NodeNext and Bundler, and run. About 35 s of CPU
 * (three builds, an npm install, two typechecks); its wall time follows the machine's load.
 */
describe('a consumer outside the workspace', () => {
  it('installs the three tarballs, typechecks under NodeNext and Bundler, and computes slots, eligibility, a price and a property', async () => {
    const { stdout } = await promisify(execFile)('bash', [fileURLToPath(new URL('run.sh', import.meta.url))], { maxBuffer: 8 * 1024 * 1024 })
    expect(stdout).toContain('slots: 09:00 09:15 09:30 09:45 10:00 10:15 10:30 10:45 11:00')
    expect(stdout).toContain('eligibility: qualification_not_passed')
    expect(stdout).toContain('price: 4950')
    expect(stdout).toContain('invalid input: true')
    expect(stdout).toContain('property: passed')
    expect(stdout).toContain('client: function none function function')
  }, 600_000)
})
