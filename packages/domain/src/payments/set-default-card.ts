import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { notFound, type NotFound, type Actor } from '../shared'
import { CARD_DEFAULT_SYNC_TOPIC } from './add-card'
import type { PaymentsDeps } from './ports'
import type { SavedCard } from './saved-card'

/**
 * Makes one of the caller's cards the default, here at once and at the processor through
 * the outbox. Another user's card, or a deleted one, does not exist (404).
 */
export function setDefaultCard(deps: Pick<PaymentsDeps, 'uow' | 'clock'>, actor: Actor, cardId: number): ResultAsync<SavedCard, NotFound> {
  const now = deps.clock.now()
  return new ResultAsync(
    deps.uow.run(async ({ cards, outbox }): Promise<Result<SavedCard, NotFound>> => {
      await cards.lockUser(actor.id)
      const card = await cards.findLive(cardId)
      if (!card || card.userId !== actor.id) return err(notFound('card'))
      const updated = await cards.makeDefault(actor.id, card.id, now)
      if (!card.isDefault) await outbox.enqueue({ kind: 'processor_sync', topic: CARD_DEFAULT_SYNC_TOPIC, data: { userId: actor.id } })
      return ok(updated)
    }),
  )
}
