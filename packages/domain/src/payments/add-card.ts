import { err, ok, ResultAsync, type Result } from 'neverthrow'
import type { User } from '../accounts'
import { validationFailed, type ValidationFailed } from '../shared'
import { ensureCustomer } from './ensure-customer'
import type { PaymentsDeps } from './ports'
import type { SavedCard } from './saved-card'

export const CARD_DEFAULT_SYNC_TOPIC = 'card.make_default'

/**
 * Checks the payment method with the processor and attaches it to the caller's customer
 * (made first when they have none) as the default; then saves it as the default card. The
 * same payment method saved again is the same card, made default again.
 */
export function addCard(deps: PaymentsDeps, actor: User, input: { paymentMethod: string }): ResultAsync<SavedCard, ValidationFailed> {
  return new ResultAsync(add(deps, actor, input.paymentMethod))
}

async function add(deps: PaymentsDeps, actor: User, paymentMethod: string): Promise<Result<SavedCard, ValidationFailed>> {
  const customerId = await ensureCustomer({ processor: deps.processor, customers: deps.uow.repos.paymentCustomers }, actor)
  const attached = await deps.processor.attachCard(customerId, paymentMethod)
  if (attached.isErr()) return err(validationFailed({ payment_method: [attached.error.reason] }))
  const now = deps.clock.now()
  return deps.uow.run(async ({ cards }) => {
    await cards.lockUser(actor.id)
    const card = (await cards.findLiveByPaymentMethod(actor.id, attached.value.paymentMethodId)) ?? (await cards.insert(actor.id, attached.value))
    return ok(await cards.makeDefault(actor.id, card.id, now))
  })
}
