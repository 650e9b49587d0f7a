import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import * as root from '@tutoring/domain'

/**
 * Each context's face by its own subpath. The specifiers are literal so that tsc resolves
 * every one of them (a subpath missing from package.json's `exports` fails the typecheck);
 * the test then loads each one.
 */
const SUBPATHS = {
  shared: () => import('@tutoring/domain/shared'),
  outbox: () => import('@tutoring/domain/outbox'),
  integrations: () => import('@tutoring/domain/integrations'),
  catalog: () => import('@tutoring/domain/catalog'),
  pricing: () => import('@tutoring/domain/pricing'),
  lesson: () => import('@tutoring/domain/lesson'),
  accounts: () => import('@tutoring/domain/accounts'),
  profiles: () => import('@tutoring/domain/profiles'),
  files: () => import('@tutoring/domain/files'),
  notifications: () => import('@tutoring/domain/notifications'),
  verification: () => import('@tutoring/domain/verification'),
  payments: () => import('@tutoring/domain/payments'),
  subscriptions: () => import('@tutoring/domain/subscriptions'),
  teaching: () => import('@tutoring/domain/teaching'),
  schedule: () => import('@tutoring/domain/schedule'),
  availability: () => import('@tutoring/domain/availability'),
  search: () => import('@tutoring/domain/search'),
  tutors: () => import('@tutoring/domain/tutors'),
  booking: () => import('@tutoring/domain/booking'),
  'booking-series': () => import('@tutoring/domain/booking-series'),
  'booking-payments': () => import('@tutoring/domain/booking-payments'),
  reviews: () => import('@tutoring/domain/reviews'),
  notes: () => import('@tutoring/domain/notes'),
  registration: () => import('@tutoring/domain/registration'),
} satisfies Record<string, () => Promise<object>>

const SRC = new URL('./', import.meta.url)
const contextFolders = readdirSync(SRC, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
type Entry = { source?: string; types: string; import: string }
const { exports, publishConfig } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, Entry>
  publishConfig: { exports: Record<string, Entry> }
}

describe("the package's subpaths", () => {
  it('name every context folder once, its source index and the files the build writes for it', () => {
    expect(Object.keys(SUBPATHS).sort()).toEqual([...contextFolders].sort())
    const built = (c: string) => ({ types: `./dist/${c}/index.d.ts`, import: `./dist/${c}/index.js` })
    const subpaths = Object.entries(exports).filter(([subpath]) => subpath !== '.')
    expect(Object.fromEntries(subpaths)).toEqual(Object.fromEntries(contextFolders.map((c) => [`./${c}`, { source: `./src/${c}/index.ts`, ...built(c) }])))
  })

  it('are packed without the source condition, whose files the tarball does not hold', () => {
    const packed = Object.fromEntries(Object.entries(exports).map(([subpath, { source: _source, ...entry }]) => [subpath, entry]))
    expect(publishConfig.exports).toEqual(packed)
  })

  it('each load', async () => {
    for (const load of Object.values(SUBPATHS)) await expect(load()).resolves.toBeTypeOf('object')
  })
})

/**
 * What the root promises (index.ts), by the context each name comes from: the values here;
 * the types beside them are held by the typecheck of their users (bench/, the other packages).
 */
const ROOT: Record<string, keyof typeof SUBPATHS> = {
  computeAvailability: 'availability',
  availabilityInputSchema: 'availability',
  DURATION_PREFERENCE: 'availability',
  lessonDurationProblem: 'availability',
  DAY_NAMES: 'schedule',
  holidaySchema: 'schedule',
  weeklyEntrySchema: 'schedule',
  ELIGIBILITY_REASONS: 'search',
  searchEligibility: 'search',
  searchQuerySchema: 'search',
  tutorSnapshotSchema: 'search',
  DEFAULT_CANCELLATION_POLICY: 'pricing',
  discountOn: 'pricing',
  lessonPriceBreakdown: 'pricing',
  lessonPricer: 'pricing',
  priceInputSchema: 'pricing',
  refundAmount: 'pricing',
  refundPercentFor: 'pricing',
  validateCoupon: 'pricing',
  CURRENCY: 'shared',
  formatPence: 'shared',
  InvalidInput: 'shared',
  LESSON_TYPES: 'shared',
  parsePounds: 'shared',
  percentOf: 'shared',
  roundHalfUp: 'shared',
}

describe("the package's root", () => {
  it('offers what another team uses first (slots, search eligibility, pricing, money), each the same object as its context gives', async () => {
    expect(Object.keys(root).sort()).toEqual(Object.keys(ROOT).sort())
    for (const [name, context] of Object.entries(ROOT)) expect((root as Record<string, unknown>)[name], name).toBe((await SUBPATHS[context]())[name as never])
  })
})
