import { DAY_MS, HOUR_MS, MINUTE_MS } from '../shared'

/**
 * Waits after the 1st, 2nd... failed attempt (the Standard Webhooks schedule), then every
 * 12 hours: a delivery is tried for RETRY_WINDOW_MS before it is `failed`.
 */
const WAITS_MS = [5_000, 5 * MINUTE_MS, 30 * MINUTE_MS, 2 * HOUR_MS, 5 * HOUR_MS, 10 * HOUR_MS, 10 * HOUR_MS]
const LATER_WAIT_MS = 12 * HOUR_MS

/** CONTRACT §16: anything but a 2xx is retried for at least 3 days. */
export const RETRY_WINDOW_MS = 3 * DAY_MS
/** CONTRACT §16: an endpoint failing for 5 days is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * DAY_MS
/** A receiver has this long to answer. */
export const DELIVERY_TIMEOUT_MS = 10_000

/**
 * After a failed attempt: the next one, or null when the delivery has been tried for the
 * whole window and is `failed`. The last retry is the first one due at or after the window's end.
 */
export function nextAttemptAfterFailure(attempts: number, createdAt: Date, now: Date): Date | null {
  if (now.getTime() - createdAt.getTime() >= RETRY_WINDOW_MS) return null
  return new Date(now.getTime() + (WAITS_MS[attempts - 1] ?? LATER_WAIT_MS))
}
