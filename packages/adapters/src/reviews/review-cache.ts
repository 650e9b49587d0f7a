import type { ReviewSummary, ReviewSummaryCache } from '@tutoring/domain/reviews'

/** Review summaries kept in this process until their expiry (the end of the London day). */
export function memoryReviewCache(maxEntries = 10_000): ReviewSummaryCache {
  const entries = new Map<number, { summary: ReviewSummary; expiresAt: number }>()
  return {
    get(tutorId, now) {
      const hit = entries.get(tutorId)
      if (!hit) return undefined
      if (hit.expiresAt <= now.getTime()) {
        entries.delete(tutorId)
        return undefined
      }
      return hit.summary
    },
    set(tutorId, summary, expiresAt) {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as number)
      entries.set(tutorId, { summary, expiresAt: expiresAt.getTime() })
    },
  }
}
