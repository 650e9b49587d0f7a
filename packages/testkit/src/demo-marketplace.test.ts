import { describe, expect, it } from 'vitest'
import { searchEligibility } from '@tutoring/domain/search'
import { demoTutorSnapshot, generateDemoTutors, type DemoCatalog } from './demo-marketplace'

const catalog: DemoCatalog = { subjects: [{ id: 1, levelIds: [1, 2, 3] }, { id: 2, levelIds: [] }, { id: 3, levelIds: [2] }], examBoardIds: [1, 2], languageIds: [5, 6] }
const today = '2026-12-01'

describe('the demo tutor generator', () => {
  it('makes the same tutors for the same seed, and others for another', () => {
    const options = { tutors: 20, today, catalog } as const
    expect(generateDemoTutors({ ...options, seed: 3 })).toEqual(generateDemoTutors({ ...options, seed: 3 }))
    expect(generateDemoTutors({ ...options, seed: 3 })).not.toEqual(generateDemoTutors({ ...options, seed: 4 }))
  })

  it('makes only searchable tutors for the demo seed, teaching subjects that have levels', () => {
    const tutors = generateDemoTutors({ seed: 11, tutors: 200, today, catalog, searchableOnly: true })
    expect(tutors).toHaveLength(200)
    for (const tutor of tutors) {
      expect(searchEligibility(demoTutorSnapshot(tutor), { today })).toEqual({ eligible: true })
      expect(tutor.teaches.some((t) => t.enabled)).toBe(true)
      expect(tutor.teaches.every((t) => t.subjectId !== 2)).toBe(true)
    }
  })

  it('rates about three tutors in five, with 1 to 80 reviews and ratings from 3 to 5 in hundredths', () => {
    const tutors = generateDemoTutors({ seed: 12, tutors: 2_000, today, catalog })
    const rated = tutors.flatMap((t) => (t.rating ? [t.rating] : []))
    expect(rated.length / tutors.length).toBeGreaterThan(0.55)
    expect(rated.length / tutors.length).toBeLessThan(0.65)
    for (const { overallRating, reviewCount } of rated) {
      expect(Number.isInteger(reviewCount) && reviewCount >= 1 && reviewCount <= 80).toBe(true)
      expect(overallRating).toBeGreaterThanOrEqual(3)
      expect(overallRating).toBeLessThanOrEqual(5)
      expect(Math.round(overallRating * 100) / 100).toBe(overallRating)
    }
    // Spread over the range, not bunched in the middle.
    expect(rated.some((r) => r.overallRating < 3.3)).toBe(true)
    expect(rated.some((r) => r.overallRating > 4.7)).toBe(true)
    expect(new Set(rated.map((r) => r.reviewCount)).size).toBe(80)
  })
})
