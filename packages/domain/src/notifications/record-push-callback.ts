import { err, ok, ResultAsync, type Result } from 'neverthrow'
import type { NotificationsDeps } from './ports'

export const PUSH_EVENT_SOURCE = 'push'

/**
 * A push provider's delivery callback. `id` is the callback's own id (a retry repeats it);
 * `messageId` names the message it reports on, as the provider named it when it accepted it.
 */
export type PushCallback = { id: string | null; type: string; messageId: string | null }

/** `matched`: how many deliveries of ours took the receipt. */
export type PushCallbackOutcome = { recorded: boolean; duplicate: boolean; matched: number }

/** CONTRACT §15: callbacks are kept this long (for recognising a provider's retry), then purged. */
export const PUSH_CALLBACK_RETENTION_DAYS = 30

const UNCHANGED: PushCallbackOutcome = { recorded: false, duplicate: false, matched: 0 }

/**
 * `POST /api/v1/remote-push-notification`, which SPEC leaves without auth, so anyone may
 * call it. A callback changes only deliveries still pending (sent, no receipt yet: CONTRACT
 * §15), recording its status against the message it names, in the same transaction as its
 * id is remembered, so a provider's retry (same id) is a duplicate. A callback that changes
 * nothing (an unknown message, a receipt already settled, no message named) is answered the
 * same way but keeps nothing, not even its id: a stranger can neither overwrite a receipt nor
 * leave rows behind.
 */
export function recordPushCallback(deps: NotificationsDeps, callback: PushCallback): ResultAsync<PushCallbackOutcome, never> {
  const work = deps.uow.run(async ({ webhookEvents, pushDeliveries }): Promise<Result<PushCallbackOutcome, PushCallbackOutcome>> => {
    const at = deps.clock.now()
    const fresh = callback.id === null || (await webhookEvents.record({ source: PUSH_EVENT_SOURCE, eventId: callback.id, type: callback.type, receivedAt: at }))
    if (!fresh) return ok({ ...UNCHANGED, duplicate: true })
    const matched = callback.messageId === null ? 0 : await pushDeliveries.recordReceipt(callback.messageId, callback.type, at)
    // Nothing changed: an Err rolls back the id just remembered.
    return matched === 0 ? err(UNCHANGED) : ok({ recorded: callback.id !== null, duplicate: false, matched })
  })
  return new ResultAsync(work.then((outcome) => ok(outcome.isOk() ? outcome.value : outcome.error)))
}
