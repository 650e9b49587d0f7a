import type { Actor } from '../shared'
import { ResultAsync } from 'neverthrow'
import type { PaymentsDeps } from './ports'
import type { SavedCard } from './saved-card'

/** The caller's own live cards, the default first; nobody, staff included, lists another's. */
export function listCards(deps: Pick<PaymentsDeps, 'uow'>, actor: Actor): ResultAsync<SavedCard[], never> {
  return ResultAsync.fromSafePromise(deps.uow.repos.cards.listLive(actor.id))
}
