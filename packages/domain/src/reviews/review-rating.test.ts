import { describe, expect, it } from 'vitest'
import { criterionMean, overallRating, tutorRating } from './review-rating'

describe('the overall rating', () => {
  it('is the mean of each review’s mean of the three criteria, to two places', () => {
    // One review of 5, 5, 4: 4.666...
    expect(overallRating({ count: 1, knowledge: 5, communication: 5, punctuality: 4 })).toBe(4.67)
    // 5,5,5 and 3,4,2: means 5 and 3, overall 4.
    expect(overallRating({ count: 2, knowledge: 8, communication: 9, punctuality: 7 })).toBe(4)
  })

  it('is null for a tutor nobody has reviewed', () => {
    expect(overallRating({ count: 0, knowledge: 0, communication: 0, punctuality: 0 })).toBeNull()
    expect(tutorRating({ count: 0, knowledge: 0, communication: 0, punctuality: 0 })).toEqual({ reviewCount: 0, overallRating: null })
  })

  it('agrees with a criterion’s own mean when the three are alike', () => {
    expect(criterionMean(13, 3)).toBe(4.33)
    expect(overallRating({ count: 3, knowledge: 13, communication: 13, punctuality: 13 })).toBe(4.33)
    expect(criterionMean(0, 0)).toBeNull()
  })

  it('is kept on the tutor with the count it was taken over', () => {
    expect(tutorRating({ count: 2, knowledge: 8, communication: 9, punctuality: 7 })).toEqual({ reviewCount: 2, overallRating: 4 })
  })
})
