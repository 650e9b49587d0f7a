import { describe, expect, it } from 'vitest'
import { compareByRating, type RatedTutor } from './rating-order'

describe('the rating order', () => {
  it('puts the higher rating first, unrated tutors last, then more reviews, then the lower id', () => {
    const tutors: RatedTutor[] = [
      { tutorId: 1, overallRating: null, reviewCount: 0 },
      { tutorId: 2, overallRating: 4.5, reviewCount: 3 },
      { tutorId: 3, overallRating: 4.5, reviewCount: 9 },
      { tutorId: 4, overallRating: 4.92, reviewCount: 1 },
      { tutorId: 5, overallRating: 4.5, reviewCount: 3 },
      { tutorId: 6, overallRating: 3, reviewCount: 80 },
      { tutorId: 0, overallRating: null, reviewCount: 0 },
    ]
    expect([...tutors].sort(compareByRating).map((t) => t.tutorId)).toEqual([4, 3, 2, 5, 6, 0, 1])
  })
})
