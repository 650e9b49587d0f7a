import { sql, type Kysely } from 'kysely'

// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // A coupon takes a percentage (in basis points, so 12.5 % is 1250) or a fixed sum in pence
  // off a booking's total. `null` limits mean no limit.
  await db.schema
    .createTable('coupons')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('uid', 'text', (c) => c.notNull().unique())
    .addColumn('percent_off_bp', 'integer', (c) => c.check(sql`percent_off_bp between 1 and 10000`))
    .addColumn('amount_off_pence', 'integer', (c) => c.check(sql`amount_off_pence > 0`))
    .addColumn('expires_at', 'timestamptz')
    .addColumn('max_redemptions', 'integer', (c) => c.check(sql`max_redemptions > 0`))
    .addColumn('max_per_user', 'integer', (c) => c.check(sql`max_per_user > 0`))
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('coupons_one_discount', sql`(percent_off_bp is null) <> (amount_off_pence is null)`)
    .execute()

  // One row per booking that used a coupon; counted against both limits.
  await db.schema
    .createTable('coupon_redemptions')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('coupon_id', 'integer', (c) => c.notNull().references('coupons.id'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('booking_id', 'bigint', (c) => c.notNull().unique().references('bookings.id'))
    .addColumn('discount_pence', 'integer', (c) => c.notNull().check(sql`discount_pence >= 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('coupon_redemptions_user').on('coupon_redemptions').columns(['coupon_id', 'user_id']).execute()

  // A demo coupon, so a fresh install can exercise discounts: 10 % off, 1000 uses, once per user.
  await db
    .insertInto('coupons')
    .values({ uid: 'WELCOME10', percent_off_bp: 1000, max_redemptions: 1000, max_per_user: 1 })
    .execute()

  // The booker's own note to the tutor, set through PUT /api/bookings/{id}.
  await db.schema.alterTable('bookings').addColumn('note', 'text').execute()

  // A tutor's note on a lesson: text and a summary, with attached files.
  await db.schema
    .createTable('notes')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('lesson_id', 'bigint', (c) => c.notNull().references('lessons.id'))
    .addColumn('author_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('notes_lesson').on('notes').columns(['lesson_id', 'id']).execute()
  await db.schema
    .createTable('note_files')
    .addColumn('note_id', 'bigint', (c) => c.notNull().references('notes.id').onDelete('cascade'))
    .addColumn('file_id', 'uuid', (c) => c.notNull().references('files.id'))
    .addPrimaryKeyConstraint('note_files_pk', ['note_id', 'file_id'])
    .execute()

  // A review of a tutor by someone who had a lesson with them: three criteria 1..5 and a comment.
  await db.schema
    .createTable('reviews')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('tutor_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('reviewer_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('knowledge', 'smallint', (c) => c.notNull().check(sql`knowledge between 1 and 5`))
    .addColumn('communication', 'smallint', (c) => c.notNull().check(sql`communication between 1 and 5`))
    .addColumn('punctuality', 'smallint', (c) => c.notNull().check(sql`punctuality between 1 and 5`))
    .addColumn('comment', 'varchar(300)')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('reviews_once_per_reviewer', ['tutor_id', 'reviewer_id'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['reviews', 'note_files', 'notes', 'coupon_redemptions', 'coupons']) {
    await db.schema.dropTable(table).ifExists().execute()
  }
  await db.schema.alterTable('bookings').dropColumn('note').execute()
}
