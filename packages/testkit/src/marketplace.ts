/**
 * Marketplaces for property tests: the seed's demo tutor generator drawn by fast-check,
 * searches over them, and whom search must find.
 */
import fc from 'fast-check'
import { demoTutorSnapshot, generateDemoTutors, UK_PLACES, type DemoCatalog, type DemoTutor, type DemoTutorOptions } from './demo-marketplace'
import type { SearchQuery, SearchSort, TutorSnapshot } from '@tutoring/domain/search'
import { addDays, LESSON_TYPES, type Geocoder, type GeoPoint, type IsoDate, type LessonTypeName } from '@tutoring/domain/shared'

/** A geocoder that knows exactly the UK_PLACES postcodes (tests, benchmark, demo). */
export const placesGeocoder = (places: ReadonlyArray<{ postcode: string; lat: number; lng: number }> = UK_PLACES): Geocoder => {
  const byPostcode = new Map(places.map((p) => [p.postcode, { lat: p.lat, lng: p.lng }]))
  return { locate: async (postcode) => byPostcode.get(postcode) }
}

/** A marketplace of `tutors` tutors for each seed fast-check draws (shrinks by seed only). */
export const arbMarketplace = (options: Omit<DemoTutorOptions, 'seed'>): fc.Arbitrary<DemoTutor[]> =>
  fc.integer({ min: 0, max: 2 ** 31 - 1 }).map((seed) => generateDemoTutors({ ...options, seed }))

/** A search as a client sends it (by wire names' meaning), over a marketplace's catalog. */
export type MarketplaceSearch = {
  date?: IsoDate
  lessonType?: LessonTypeName
  place?: GeoPoint
  subjectId?: number
  subjectLevelIds?: number[]
  examBoardIds?: number[]
  gender?: 'male' | 'female'
  languageId?: number
  sort?: SearchSort
}

export const arbMarketplaceSearch = (today: IsoDate, catalog: DemoCatalog): fc.Arbitrary<MarketplaceSearch> => {
  // Each filter in about one search of three, so most searches still find somebody.
  const sometimes = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
    fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb })
  const subject = fc.constantFrom(...catalog.subjects.filter((s) => s.levelIds.length > 0))
  const london = UK_PLACES.slice(0, 9)
  return fc
    .record({
      date: sometimes(fc.integer({ min: -2, max: 16 }).map((d) => addDays(today, d))),
      lessonType: sometimes(fc.constantFrom(...LESSON_TYPES)),
      place: sometimes(
        fc.constantFrom(...london, ...UK_PLACES).chain((p) =>
          fc.record({ lat: fc.double({ min: p.lat - 0.1, max: p.lat + 0.1, noNaN: true }), lng: fc.double({ min: p.lng - 0.15, max: p.lng + 0.15, noNaN: true }) }),
        ),
      ),
      subjectFilter: sometimes(
        subject.chain((s) => fc.record({ subjectId: fc.constant(s.id), subjectLevelIds: sometimes(fc.subarray([...s.levelIds], { minLength: 1 })) })),
      ),
      examBoardIds: sometimes(fc.subarray([...catalog.examBoardIds], { minLength: 1, maxLength: 4 })),
      gender: sometimes(fc.constantFrom('male' as const, 'female' as const)),
      languageId: sometimes(fc.constantFrom(...catalog.languageIds)),
      sort: sometimes(fc.constantFrom<SearchSort>('rating', 'price_asc', 'price_desc')),
    })
    .map(({ subjectFilter, ...rest }) => {
      const search: MarketplaceSearch = {}
      for (const [key, value] of Object.entries({ ...rest, ...subjectFilter })) {
        if (value !== undefined) (search as Record<string, unknown>)[key] = value
      }
      return search
    })
}

/**
 * Whom search must find: the domain's eligibility rules, an enabled teach matching the subject,
 * any of the levels and any of the boards, and the gender and language filters.
 */
export function expectedMatches(t: DemoTutor, search: MarketplaceSearch, eligible: (s: TutorSnapshot, q: SearchQuery) => boolean, today: IsoDate): boolean {
  const query: SearchQuery = {
    today,
    ...(search.date !== undefined && { date: search.date }),
    ...(search.lessonType !== undefined && { lessonType: search.lessonType }),
    ...(search.place !== undefined && { studentLocation: search.place }),
  }
  if (!eligible(demoTutorSnapshot(t), query)) return false
  if (search.gender !== undefined && t.gender !== search.gender) return false
  if (search.languageId !== undefined && !t.languageIds.includes(search.languageId)) return false
  return t.teaches.some(
    (teach) =>
      teach.enabled &&
      (search.subjectId === undefined || teach.subjectId === search.subjectId) &&
      (!search.subjectLevelIds?.length || teach.levelIds.some((l) => search.subjectLevelIds!.includes(l))) &&
      (!search.examBoardIds?.length || teach.examBoardIds.some((b) => search.examBoardIds!.includes(b))),
  )
}
