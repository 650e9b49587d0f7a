import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { notFound, type NotFound, type Actor } from '../shared'
import { CARD_DEFAULT_SYNC_TOPIC } from './add-card'
import type { PaymentsDeps } from './ports'

export const CARD_DETACH_SYNC_TOPIC = 'card.detach'

/**
 * Soft-deletes one of the caller's cards and detaches it at the processor (outbox). When
 * it was the default, the most recently added remaining card becomes the default, so a
 * customer with cards always has one; with none left there is no default.
 */
export function deleteCard(deps: Pick<PaymentsDeps, 'uow' | 'clock'>, actor: Actor, cardId: number): ResultAsync<void, NotFound> {
  const now = deps.clock.now()
  return new ResultAsync(
    deps.uow.run(async ({ cards, outbox }): Promise<Result<void, NotFound>> => {
      await cards.lockUser(actor.id)
      const card = await cards.findLive(cardId)
      if (!card || card.userId !== actor.id) return err(notFound('card'))
      await cards.softDelete(card.id, now)
      await outbox.enqueue({
        kind: 'processor_sync',
        topic: CARD_DETACH_SYNC_TOPIC,
        data: { paymentMethodId: card.paymentMethodId },
        dedupeKey: `${CARD_DETACH_SYNC_TOPIC}:${card.id}`,
      })
      if (card.isDefault) {
        const next = (await cards.listLive(actor.id)).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)[0]
        if (next) {
          await cards.makeDefault(actor.id, next.id, now)
          await outbox.enqueue({ kind: 'processor_sync', topic: CARD_DEFAULT_SYNC_TOPIC, data: { userId: actor.id } })
        }
      }
      return ok(undefined)
    }),
  )
}
