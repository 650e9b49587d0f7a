import { getReview } from '@tutoring/domain/reviews'
import type { Services } from '@tutoring/adapters'
import { describeWebhook, type WebhookData } from '../integrations'
import type { App } from '../platform/routes'
import { presentReview, ReviewSchema } from './reviews.schemas'

/** `review.created` carries the review as stored (the reviewed tutor's and the reviewer's endpoints hear of it). */
export const reviewWebhookData =
  (services: Services): WebhookData =>
  async (_type, id) => {
    const found = await getReview(services.reviews, id)
    return found.isOk() ? presentReview(found.value) : { id }
  }

export function reviewWebhookDocs(app: App): void {
  describeWebhook(app, { type: 'review.created', summary: 'A tutor was reviewed', data: ReviewSchema })
}
