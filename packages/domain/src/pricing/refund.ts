import { HOUR_MS, percentOf, type Pence } from '../shared'

/** One tier of a cancellation policy (wire: `{hours_before_start, refund_percent}`). */
export type RefundTier = { hoursBeforeStart: number; refundPercent: number }

/** CONTRACT.md §6: 24 h or more before the start, 100 %; less, 50 %. */
export const DEFAULT_CANCELLATION_POLICY: readonly RefundTier[] = [
  { hoursBeforeStart: 24, refundPercent: 100 },
  { hoursBeforeStart: 0, refundPercent: 50 },
]

/**
 * The refund percentage of the tier with the most hours that the notice still meets. Notice
 * below every tier (a cancellation after the start, with the default policy) refunds nothing.
 */
export const refundPercentFor = (policy: readonly RefundTier[], start: Date, now: Date): number => {
  const noticeMs = start.getTime() - now.getTime()
  let best: RefundTier | undefined
  for (const tier of policy) {
    const met = noticeMs >= tier.hoursBeforeStart * HOUR_MS
    if (met && (!best || tier.hoursBeforeStart > best.hoursBeforeStart)) best = tier
  }
  return best?.refundPercent ?? 0
}

/** `percent` % of what was paid, half up, and never more than was paid. */
export const refundAmount = (paid: Pence, percent: number): Pence =>
  Math.min(paid, percentOf(paid, Math.min(100, percent)))
