import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { forbidden, ROLE_IDS, validationFailed, type Forbidden, type ValidationFailed, type Actor } from '../shared'
import type { Subscription, SubscriptionsDeps } from './ports'
import { FINAL_SUBSCRIPTION_STATUSES } from './subscription-status'

/** The outbox topic whose handler makes the processor's copy (shared with registration). */
export const SUBSCRIPTION_CREATE_TOPIC = 'subscription.create'

export type SubscriptionStarted = { subscription: Subscription; created: boolean }

/**
 * A tutor's membership on a plan (the active plan unless a `priceId` names another active
 * one). It starts `trialing` when the plan has a trial, else `incomplete` until the
 * processor reports the first payment. The processor's copy is made after commit by the
 * outbox. A tutor with a live subscription that has not ended gets that one back
 * (`created: false`): one membership per tutor, and a retried request is harmless. An ended
 * one (incomplete_expired) is closed and replaced.
 */
export function startSubscription(
  deps: Pick<SubscriptionsDeps, 'uow' | 'clock'>,
  actor: Actor,
  input: { priceId?: string },
): ResultAsync<SubscriptionStarted, Forbidden | ValidationFailed> {
  if (actor.roleId !== ROLE_IDS.tutor) return new ResultAsync(Promise.resolve(err(forbidden('Only tutors subscribe.'))))
  return new ResultAsync(start(deps, actor, input))
}

async function start(deps: Pick<SubscriptionsDeps, 'uow' | 'clock'>, tutor: Actor, input: { priceId?: string }): Promise<Result<SubscriptionStarted, ValidationFailed>> {
  const now = deps.clock.now()
  return deps.uow.run(async ({ subscriptions, outbox }): Promise<Result<SubscriptionStarted, ValidationFailed>> => {
    const plan = input.priceId ? await subscriptions.planByPriceId(input.priceId) : await subscriptions.activePlan()
    if (!plan || !plan.active) {
      if (input.priceId) return err(validationFailed({ price_id: ['is not an available plan'] }))
      throw new Error('no active subscription plan: run the seed')
    }
    const live = await subscriptions.lockLiveForUser(tutor.id)
    if (live && !FINAL_SUBSCRIPTION_STATUSES.includes(live.status)) return ok({ subscription: live, created: false })
    if (live) await subscriptions.softDelete(live.id, now)
    const trialing = plan.trialPeriodDays > 0
    const subscription = await subscriptions.insert({
      userId: tutor.id,
      planId: plan.id,
      status: trialing ? 'trialing' : 'incomplete',
      trialEndsAt: trialing ? new Date(now.getTime() + plan.trialPeriodDays * 86_400_000) : null,
    })
    await outbox.enqueue({
      kind: 'processor_sync',
      topic: SUBSCRIPTION_CREATE_TOPIC,
      data: { subscriptionId: subscription.id, userId: tutor.id },
      dedupeKey: `${SUBSCRIPTION_CREATE_TOPIC}:${subscription.id}`,
    })
    return ok({ subscription, created: true })
  })
}
