import { ok, ResultAsync } from 'neverthrow'
import type { VerificationDeps, VerificationRepos } from './ports'
import { queueVerificationEffects } from './verification-effects'
import { providerResultTrigger, transitionVerification } from './verification'
import { storedStatus } from './verification-record'

export const VERIFICATION_EVENT_SOURCE = 'verification'
export const CHECK_COMPLETED = 'check.completed'

export type ProviderResultStatus = 'PASS' | 'FAIL' | 'INTERNAL_REVIEW'

/** The provider's webhook (CONTRACT.md §8); `result` is the `data` of a `check.completed`. */
export type ProviderEvent = {
  id: string
  type: string
  result?: { reference: string; status: ProviderResultStatus }
}

export type ProviderEventOutcome =
  | { outcome: 'handled' }
  | { outcome: 'duplicate' }
  | { outcome: 'ignored'; reason: 'unknown_type' | 'unknown_reference' | 'not_pending' }

/**
 * Records a provider result on the verification account it names. Every event id is
 * remembered in the same transaction as the change, so a repeat changes nothing and
 * queues no second email. Events this service can't act on (another type, a reference it
 * never issued, a result for a check that is no longer pending) are acknowledged and
 * ignored, so the provider stops retrying them.
 */
export function recordProviderResult(deps: VerificationDeps, event: ProviderEvent): ResultAsync<ProviderEventOutcome, never> {
  return new ResultAsync(deps.uow.run((repos) => apply(deps, repos, event).then((outcome) => ok(outcome))))
}

async function apply(deps: VerificationDeps, repos: VerificationRepos, event: ProviderEvent): Promise<ProviderEventOutcome> {
  const now = deps.clock.now()
  const fresh = await repos.webhookEvents.record({ source: VERIFICATION_EVENT_SOURCE, eventId: event.id, type: event.type, receivedAt: now })
  if (!fresh) return { outcome: 'duplicate' }
  if (event.type !== CHECK_COMPLETED || !event.result) return { outcome: 'ignored', reason: 'unknown_type' }

  const record = await repos.verifications.lockByReference(event.result.reference)
  if (!record) return { outcome: 'ignored', reason: 'unknown_reference' }
  const transition = transitionVerification(record.status, providerResultTrigger(event.result.status), {
    kind: record.kind,
    documentUploaded: record.documentFileId !== null,
  })
  if (transition.isErr()) return { outcome: 'ignored', reason: 'not_pending' }

  const changed = await repos.verifications.update(record.id, { status: storedStatus(transition.value.to), reviewedBy: null, at: now })
  await queueVerificationEffects(repos.outbox, transition.value.effects, {
    record: changed,
    previous: record.status,
    tutor: await repos.users.findById(record.userId),
    cause: `${VERIFICATION_EVENT_SOURCE}:${event.id}`,
    internalMailbox: deps.config.internalMailbox,
  })
  return { outcome: 'handled' }
}
