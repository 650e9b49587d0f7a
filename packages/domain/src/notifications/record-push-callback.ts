import { ok, ResultAsync, type Result } from 'neverthrow'
import type { NotificationsDeps } from './ports'

export const PUSH_EVENT_SOURCE = 'push'

/**
 * A push provider's delivery callback. `id` is the callback's own id (a retry repeats it);
 * `messageId` names the message it reports on, as the provider named it when it accepted it.
 */
export type PushCallback = { id: string | null; type: string; messageId: string | null }

/** `matched`: how many deliveries of ours the receipt was recorded against. */
export type PushCallbackOutcome = { recorded: boolean; duplicate: boolean; matched: number }

/**
 * `POST /api/v1/remote-push-notification`: the receipt is recorded against the message it
 * names, in the same transaction as the callback's id is remembered, so a provider's retry
 * (same id) is a duplicate and changes nothing. A callback without an id cannot be recognised
 * again; its receipt is still recorded (a later one overwrites it, as the latest status wins).
 */
export function recordPushCallback(deps: NotificationsDeps, callback: PushCallback): ResultAsync<PushCallbackOutcome, never> {
  return new ResultAsync(
    deps.uow.run(async ({ webhookEvents, pushDeliveries }): Promise<Result<PushCallbackOutcome, never>> => {
      const at = deps.clock.now()
      const fresh = callback.id === null || (await webhookEvents.record({ source: PUSH_EVENT_SOURCE, eventId: callback.id, type: callback.type, receivedAt: at }))
      if (!fresh) return ok({ recorded: false, duplicate: true, matched: 0 })
      const matched = callback.messageId === null ? 0 : await pushDeliveries.recordReceipt(callback.messageId, callback.type, at)
      return ok({ recorded: callback.id !== null, duplicate: false, matched })
    }),
  )
}
