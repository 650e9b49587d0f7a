import { randomBytes } from 'node:crypto'
import type { Command } from '../command'
import { usageError } from '../io'
import { withDatabase } from '../resources'

export const seed: Command = {
  name: 'seed',
  usage: '[--demo N]',
  summary: 'insert the reference data that is missing (safe to repeat); --demo N adds N searchable demo tutors',
  options: { demo: { type: 'string' } },
  check({ values }) {
    const demo = values.demo
    if (demo !== undefined && (typeof demo !== 'string' || !/^[1-9]\d{0,6}$/.test(demo) || Number(demo) > 1_000_000)) {
      throw usageError('--demo takes a whole number of tutors, 1 to 1000000')
    }
  },
  async run({ io, config, values, answer }) {
    const demo = values.demo
    const { argon2Hasher, demoCatalog, loadDemoTutors, seedReferenceData } = await import('@tutoring/adapters')
    await withDatabase(config, async (database) => {
      await seedReferenceData(database.db)
      if (demo === undefined) {
        answer({ reference_data: 'in place', demo_tutors: 0 }, 'reference data is in place')
        return
      }
      if (!values.json) io.out('reference data is in place')
      const { londonToday } = await import('@tutoring/domain/shared')
      const { demoTutors } = await import('@tutoring/testkit/demo')
      const now = new Date()
      const count = Number(demo)
      const tutors = demoTutors({
        seed: now.getTime() % 2 ** 31,
        tutors: count,
        today: londonToday(now),
        catalog: await demoCatalog(database.db),
        searchableOnly: true,
      })
      // Nobody knows this password: demo tutors are found, never logged in as.
      const passwordHash = await argon2Hasher().hash(randomBytes(24).toString('base64url'))
      const tag = randomBytes(4).toString('hex')
      const started = Date.now()
      await loadDemoTutors(database.db, tutors, {
        tag,
        passwordHash,
        onProgress: (loaded) => io.progress?.(`loaded ${loaded} of ${count} demo tutors (${Math.round((loaded / count) * 100)} %, ${Math.round((Date.now() - started) / 1000)} s)`),
      })
      answer({ reference_data: 'in place', demo_tutors: count, first_email: `demo-${tag}-1@demo.example.com` }, `added ${count} searchable demo tutor(s), emails demo-${tag}-1@demo.example.com onwards`)
    })
  },
}
