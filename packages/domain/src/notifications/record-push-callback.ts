import { ok, ResultAsync } from 'neverthrow'
import type { NotificationsDeps } from './ports'

export const PUSH_EVENT_SOURCE = 'push'

/** A push provider's delivery callback; only one with an id can be recognised again. */
export type PushCallback = { id: string | null; type: string }

export type PushCallbackOutcome = { recorded: boolean; duplicate: boolean }

/**
 * `POST /api/v1/remote-push-notification`. SPEC.md gives this callback no effect, so it is
 * acknowledged and, when it carries an id, remembered once: a provider's retry is a
 * duplicate and changes nothing.
 */
export function recordPushCallback(deps: NotificationsDeps, callback: PushCallback): ResultAsync<PushCallbackOutcome, never> {
  return new ResultAsync(run(deps, callback).then((outcome) => ok(outcome)))
}

async function run(deps: NotificationsDeps, callback: PushCallback): Promise<PushCallbackOutcome> {
  if (callback.id === null) return { recorded: false, duplicate: false }
  const fresh = await deps.uow.repos.webhookEvents.record({
    source: PUSH_EVENT_SOURCE,
    eventId: callback.id,
    type: callback.type,
    receivedAt: deps.clock.now(),
  })
  return { recorded: fresh, duplicate: !fresh }
}
