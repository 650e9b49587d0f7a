import type { BookingRepository } from '../booking'
import type { IntegrationEvents } from '../integrations'
import type { Clock, UnitOfWork } from '../shared'
import type { ReviewTotals, TutorRating } from './review-rating'

export type ReviewDraft = { knowledge: number; communication: number; punctuality: number; comment: string | null }
/** A review as stored, with whom it is about and who wrote it. */
export type Review = ReviewDraft & { id: number; tutorId: number; reviewerId: number; createdAt: Date }
export type ReviewSummary = {
  tutorId: number
  count: number
  average: number | null
  criteria: { knowledge: number | null; communication: number | null; punctuality: number | null }
  latest: Array<ReviewDraft & { id: number; reviewerId: number; createdAt: Date }>
}

export interface ReviewRepository {
  /** Holds the tutor's rating until the transaction ends, so two reviews at once each count the other. */
  lockRating(tutorId: number): Promise<void>
  /** Undefined when this reviewer already reviewed this tutor. */
  insert(tutorId: number, reviewerId: number, draft: ReviewDraft): Promise<{ id: number } | undefined>
  totals(tutorId: number): Promise<ReviewTotals>
  saveRating(tutorId: number, rating: TutorRating): Promise<void>
  summary(tutorId: number): Promise<ReviewSummary>
  /** One review as stored, with whom it is about. */
  findById(id: number): Promise<Review | undefined>
  /** Whether a live user with the tutor role has this id. */
  isTutor(tutorId: number): Promise<boolean>
}

/** Where a tutor's review summary is kept until it expires. */
export interface ReviewSummaryCache {
  get(tutorId: number, now: Date): ReviewSummary | undefined
  set(tutorId: number, summary: ReviewSummary, expiresAt: Date): void
}

/** A reviewer's lessons with the tutor are booking's to answer; the review rows are this context's. */
export type ReviewsRepos = { bookings: Pick<BookingRepository, 'lessonsWith'>; reviews: ReviewRepository; integrationEvents: IntegrationEvents }

export type ReviewsDeps = {
  uow: UnitOfWork<ReviewsRepos>
  clock: Clock
  reviewCache: ReviewSummaryCache
}
