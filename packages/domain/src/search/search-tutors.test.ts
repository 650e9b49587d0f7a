import { describe, expect, it } from 'vitest'
import type { Geocoder, PostcodeParser } from '../shared'
import type { SearchDeps, TutorSearchCriteria, TutorSearchHit } from './ports'
import { searchTutors, type SearchTutorsInput } from './search-tutors'

const NOW = new Date('2026-06-01T23:30:00Z') // already 2 June in London (BST)
const hit: TutorSearchHit = {
  tutorId: 7,
  firstname: 'Ada',
  lastname: 'Lovelace',
  tutoringExperienceMonths: 38,
  distanceMiles: null,
  teach: { id: 3, subject: { id: 1, title: 'Mathematics' }, subjectLevel: { id: 2, title: 'GCSE' }, examBoards: [], hourlyRatePence: 3333 },
}

function fakeDeps() {
  const asked: TutorSearchCriteria[] = []
  const postcodes: PostcodeParser = { parse: (text) => (/^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i.test(text.trim()) ? { postcode: text.trim().toUpperCase(), outcode: 'SW1A' } : undefined) }
  const geocoder: Geocoder = { locate: async (postcode) => (postcode === 'SW1A 1AA' ? { lat: 51.501, lng: -0.1416 } : undefined) }
  const deps: SearchDeps = {
    uow: {
      repos: { tutorSearch: { search: async (criteria) => (asked.push(criteria), { items: [hit], total: 1 }) } },
      run: () => {
        throw new Error('search writes nothing')
      },
    },
    clock: { now: () => NOW },
    geocoder,
    postcodes,
    config: { serviceFeePercent: 12.5 },
  }
  return { deps, asked }
}

const search = (input: Partial<SearchTutorsInput>) => {
  const { deps, asked } = fakeDeps()
  return { result: searchTutors(deps, { page: { page: 1, perPage: 15 }, ...input }), asked }
}

describe('searchTutors', () => {
  it('asks with London\'s today, the weekday of the date and the default sort, and prices the duration', async () => {
    const { result, asked } = search({ date: '2026-06-08', durationMinutes: 90 })
    const page = (await result)._unsafeUnwrap()
    expect(asked).toEqual([{ today: '2026-06-02', date: '2026-06-08', weekday: 1, subjectLevelIds: [], examBoardIds: [], sort: 'rating' }])
    expect(page.items[0]!.price).toMatchObject({ lessonPrice: 5000, serviceFee: 625, total: 5625 })
    expect(page.durationMinutes).toBe(90)
  })

  it('sorts by distance by default once there is a place, and refuses distance without one', async () => {
    const { result, asked } = search({ postCode: 'sw1a 1aa' })
    await result
    expect(asked[0]).toMatchObject({ studentLocation: { lat: 51.501, lng: -0.1416 }, sort: 'distance' })
    expect((await search({ sort: 'distance' }).result)._unsafeUnwrapErr()).toEqual({ type: 'ValidationFailed', errors: { sort: [expect.any(String)] } })
  })

  it('finds nobody for dates outside today..today+14 without asking the database', async () => {
    for (const date of ['2026-06-01', '2026-06-17']) {
      const { result, asked } = search({ date })
      expect((await result)._unsafeUnwrap()).toEqual({ items: [], total: 0, durationMinutes: 60 })
      expect(asked).toEqual([])
    }
    expect((await search({ date: '2026-06-16' }).result)._unsafeUnwrap().total).toBe(1)
  })

  it('refuses malformed and unknown postcodes, half a coordinate pair, and both kinds of place', async () => {
    const errorsOf = async (input: Partial<SearchTutorsInput>) => {
      const outcome = await search(input).result
      return outcome.isErr() ? Object.keys(outcome.error.errors) : []
    }
    expect(await errorsOf({ postCode: 'nowhere' })).toEqual(['post_code'])
    expect(await errorsOf({ postCode: 'ZE1 0AA' })).toEqual(['post_code'])
    expect(await errorsOf({ lat: 51.5 })).toEqual(['lng'])
    expect(await errorsOf({ postCode: 'SW1A 1AA', lat: 51.5, lng: 0 })).toEqual(['post_code'])
    expect(await errorsOf({ durationMinutes: 121 })).toEqual(['duration'])
    expect(await errorsOf({ date: '2026-02-30' })).toEqual(['date'])
  })
})
