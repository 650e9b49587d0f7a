import { ResultAsync } from 'neverthrow'
import { DURATION_PREFERENCE } from '../availability'
import { discountOn, lessonPriceBreakdown, validateCoupon, type CouponInvalid, type PriceBreakdown } from '../pricing'
import type { Actor, Pence } from '../shared'
import type { BookingDeps, StoredCoupon } from './ports'

export type CouponCheck = { coupon: StoredCoupon; discountPence: Pence | null; breakdown: PriceBreakdown | null }

/**
 * `GET /api/coupons/{uid}/validate`: expiry and both usage limits for the caller, and the
 * discount on an amount (`amount` in pence, the total before the coupon) or on a lesson
 * (`hourly rate × minutes`) when given.
 */
export function checkCoupon(
  deps: Pick<BookingDeps, 'uow' | 'clock' | 'config'>,
  actor: Actor,
  input: { uid: string; amountPence?: Pence; hourlyRatePence?: Pence; durationMinutes?: number },
): ResultAsync<CouponCheck, CouponInvalid> {
  return ResultAsync.fromSafePromise(
    (async () => {
      const found = await deps.uow.repos.coupons.findByUid(input.uid)
      const used = found ? await deps.uow.repos.coupons.redeemedBy(found.id, actor.id) : 0
      return { found, used }
    })(),
  ).andThen(({ found, used }) =>
    validateCoupon(input.uid, found, { now: deps.clock.now(), redeemedByUser: used }).map((): CouponCheck => {
      const coupon = found as StoredCoupon
      const breakdown =
        input.hourlyRatePence !== undefined
          ? lessonPriceBreakdown({
              hourlyRatePence: input.hourlyRatePence,
              durationMinutes: input.durationMinutes ?? DURATION_PREFERENCE.default,
              serviceFeePercent: deps.config.serviceFeePercent,
              coupon: coupon.discount,
            })
          : null
      const discountPence = input.amountPence !== undefined ? discountOn(input.amountPence, coupon.discount) : (breakdown?.discount ?? null)
      return { coupon, discountPence, breakdown }
    }),
  )
}
