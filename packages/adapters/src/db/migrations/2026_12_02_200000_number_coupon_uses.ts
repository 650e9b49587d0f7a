import { sql, type Kysely } from 'kysely'

/**
 * Per-user coupon limits that hold when two requests redeem at the same instant (issue 13):
 * each redemption is the user's `use_number`-th of that coupon, and (coupon, user, number) is
 * unique, so two transactions that both counted the same earlier uses can not both write the
 * next one. A once-per-user coupon is the case `use_number = 1`. Existing rows are numbered
 * in the order they were written.
 */
// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('coupon_redemptions').addColumn('use_number', 'integer').execute()
  await sql`
    update coupon_redemptions r set use_number = n.use_number
    from (select id, row_number() over (partition by coupon_id, user_id order by id) as use_number from coupon_redemptions) n
    where n.id = r.id
  `.execute(db)
  await db.schema.alterTable('coupon_redemptions').alterColumn('use_number', (c) => c.setNotNull()).execute()
  await db.schema.alterTable('coupon_redemptions').addCheckConstraint('coupon_redemptions_use_number_positive', sql`use_number > 0`).execute()
  await db.schema.alterTable('coupon_redemptions').addUniqueConstraint('coupon_redemptions_user_use', ['coupon_id', 'user_id', 'use_number']).execute()
  // The unique constraint's index answers (coupon, user) lookups too.
  await db.schema.dropIndex('coupon_redemptions_user').ifExists().execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('coupon_redemptions_user').ifNotExists().on('coupon_redemptions').columns(['coupon_id', 'user_id']).execute()
  await db.schema.alterTable('coupon_redemptions').dropConstraint('coupon_redemptions_user_use').execute()
  await db.schema.alterTable('coupon_redemptions').dropConstraint('coupon_redemptions_use_number_positive').execute()
  await db.schema.alterTable('coupon_redemptions').dropColumn('use_number').execute()
}
