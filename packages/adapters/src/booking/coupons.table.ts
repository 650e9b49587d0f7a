import type { Generated, Selectable } from 'kysely'

export interface CouponsTable {
  id: Generated<number>
  uid: string
  /** 12.5 % is 1250; exactly one of this and `amount_off_pence` is set. */
  percent_off_bp: number | null
  amount_off_pence: number | null
  expires_at: Date | null
  max_redemptions: number | null
  max_per_user: number | null
  active: Generated<boolean>
  created_at: Generated<Date>
}
export interface CouponRedemptionsTable {
  id: Generated<number>
  coupon_id: number
  user_id: number
  booking_id: number
  discount_pence: number
  /** The user's n-th use of the coupon; unique per coupon and user (migration 2026_12_02_200000). */
  use_number: number
  created_at: Generated<Date>
}
export type CouponRow = Selectable<CouponsTable>
