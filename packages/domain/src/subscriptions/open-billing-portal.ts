import { err, ok, ResultAsync, type Result } from 'neverthrow'
import type { User } from '../accounts'
import { ensureCustomer } from '../payments'
import { notFound, type NotFound } from '../shared'
import type { SubscriptionsDeps } from './ports'

export type PortalAction = { type: 'update_payment_method' | 'cancel'; url: string }

/**
 * SPEC.md's billing portal response: one processor portal session per action, each landing
 * on its own flow. Only a user with a live subscription has one (404 otherwise).
 */
export function openBillingPortal(deps: SubscriptionsDeps, actor: User): ResultAsync<PortalAction[], NotFound> {
  return new ResultAsync(open(deps, actor))
}

async function open(deps: SubscriptionsDeps, actor: User): Promise<Result<PortalAction[], NotFound>> {
  const subscription = await deps.uow.repos.subscriptions.findLiveForUser(actor.id)
  if (!subscription) return err(notFound('subscription'))
  const customerId = await ensureCustomer({ processor: deps.processor, customers: deps.uow.repos.paymentCustomers }, actor)
  const session = (flow: 'payment_method_update' | 'subscription_cancel') =>
    deps.processor.createBillingPortalSession({
      customerId,
      returnUrl: deps.config.portalReturnUrl,
      flow,
      subscriptionId: subscription.processorSubscriptionId,
    })
  const [update, cancel] = await Promise.all([session('payment_method_update'), session('subscription_cancel')])
  return ok([
    { type: 'update_payment_method', url: update.url },
    { type: 'cancel', url: cancel.url },
  ])
}
