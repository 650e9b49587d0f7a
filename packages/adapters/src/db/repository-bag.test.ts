import { describe, expect, it } from 'vitest'
import { databaseAnsweringNothing } from '../testing/database-answering-nothing'
import { insideBags, outsideBags, repositoryPart } from './repository-bag'

const db = databaseAnsweringNothing()
const now = () => new Date(0)

/** Two parts that count how often each is built. */
const counted = () => {
  const builds = { people: 0, places: 0 }
  const people = repositoryPart({
    outside: () => (builds.people++, { users: { find: () => 'user' }, tokens: { find: () => 'token' } }),
    locks: (_trx, repos) => ({ users: { ...repos.users, lock: () => 'locked' } }),
    names: { users: true, tokens: true },
  })
  const places = repositoryPart({ outside: () => (builds.places++, { towns: { find: () => 'town' } }), names: { towns: true } })
  return { builds, parts: [people, places] as const }
}

describe('the repository bag', () => {
  it('builds a part only when one of its names is first read, and once per bag', async () => {
    const { builds, parts } = counted()
    await db.transaction().execute(async (trx) => {
      const bag = insideBags(parts)({ trx, now })
      expect(builds).toEqual({ people: 0, places: 0 })
      expect(bag.users.lock()).toBe('locked')
      expect(bag.tokens.find()).toBe('token')
      expect(bag.users).toBe(bag.users)
      expect(builds).toEqual({ people: 1, places: 0 })
      expect(bag.towns.find()).toBe('town')
      expect(builds).toEqual({ people: 1, places: 1 })
      insideBags(parts)({ trx, now }).tokens.find()
      expect(builds).toEqual({ people: 2, places: 1 })
    })
  })

  it('answers every name, outside a transaction without the locks', () => {
    const { parts } = counted()
    const bag = outsideBags(parts)({ db, now })
    expect([bag.users.find(), bag.tokens.find(), bag.towns.find()]).toEqual(['user', 'token', 'town'])
    expect('lock' in bag.users).toBe(false)
  })

  it('refuses, when the service starts, a name that two parts answer', () => {
    const { parts } = counted()
    const again = repositoryPart({ outside: () => ({ towns: {} }), names: { towns: true } })
    expect(() => insideBags([...parts, again])).toThrow("two parts of the repository bag answer 'towns'")
  })
})
