import { sql, type Kysely } from 'kysely'
import type { CouponRepository, StoredCoupon } from '@tutoring/domain/booking'
import type { Database } from '../db/database'
import type { CouponRow } from './coupons.table'

const OFFSET = (page: { page: number; perPage: number }) => (page.page - 1) * page.perPage

export const rowToCoupon = (row: CouponRow & { times_redeemed: number }): StoredCoupon => ({
  id: row.id,
  uid: row.uid,
  discount:
    row.percent_off_bp !== null
      ? { kind: 'percentage', percentOff: row.percent_off_bp / 100 }
      : { kind: 'fixed', amountOffPence: row.amount_off_pence ?? 0 },
  expiresAt: row.expires_at,
  maxRedemptions: row.max_redemptions,
  maxRedemptionsPerUser: row.max_per_user,
  timesRedeemed: Number(row.times_redeemed),
  active: row.active,
})

export function couponRepository(db: Kysely<Database>): CouponRepository {
  const base = () =>
    db
      .selectFrom('coupons as c')
      .selectAll('c')
      .select(sql<number>`(select count(*) from coupon_redemptions r where r.coupon_id = c.id)`.as('times_redeemed'))
      .where('c.active', '=', true)
  return {
    async findByUid(uid) {
      const row = await base().where('c.uid', '=', uid).executeTakeFirst()
      return row && rowToCoupon(row)
    },
    async redeemedBy(couponId, userId) {
      const row = await db
        .selectFrom('coupon_redemptions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('coupon_id', '=', couponId)
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
      return Number(row.n)
    },
    async redeem(input) {
      // The number after the uses the caller counted; a concurrent redemption that took it first
      // wins, this one writes nothing (on a unique conflict PostgreSQL waits for the other to
      // commit). Not max+1 at insert: a statement later than the count sees a use committed
      // between them and would take the next number, letting a once-per-user coupon through twice.
      const written = await db
        .insertInto('coupon_redemptions')
        .values({
          coupon_id: input.couponId,
          user_id: input.userId,
          booking_id: input.bookingId,
          discount_pence: input.discountPence,
          use_number: input.useNumber,
        })
        .onConflict((oc) => oc.columns(['coupon_id', 'user_id', 'use_number']).doNothing())
        .returning('id')
        .executeTakeFirst()
      return written !== undefined
    },
    async list(page, now) {
      const live = base().where((eb) => eb.or([eb('c.expires_at', 'is', null), eb('c.expires_at', '>', now)]))
      const [rows, count] = await Promise.all([
        live.orderBy('c.id').limit(page.perPage).offset(OFFSET(page)).execute(),
        db
          .selectFrom('coupons as c')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('c.active', '=', true)
          .where((eb) => eb.or([eb('c.expires_at', 'is', null), eb('c.expires_at', '>', now)]))
          .executeTakeFirstOrThrow(),
      ])
      return { items: rows.map(rowToCoupon), total: Number(count.n) }
    },
  }
}
