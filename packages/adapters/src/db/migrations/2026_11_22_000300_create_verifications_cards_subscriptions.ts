import { sql, type Kysely } from 'kysely'

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // One row per tutor and kind; no row means nothing was submitted (status NONE).
  await db.schema
    .createTable('verifications')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('identity', 'dbs', 'qualification')`))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('PENDING', 'PASS', 'FAIL', 'INTERNAL_REVIEW')`),
    )
    .addColumn('reference', 'text', (c) => c.notNull().unique())
    .addColumn('redirect_url', 'text')
    .addColumn('document_file_id', 'uuid', (c) => c.references('files.id').onDelete('set null'))
    .addColumn('certificate_number', 'text')
    .addColumn('issue_date', 'date')
    .addColumn('reviewed_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('verifications_user_kind', ['user_id', 'kind'])
    .execute()

  await db.schema
    .createTable('cards')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('processor_payment_method_id', 'text', (c) => c.notNull())
    .addColumn('brand', 'text', (c) => c.notNull())
    .addColumn('last4', 'char(4)', (c) => c.notNull())
    .addColumn('exp_month', 'smallint', (c) => c.notNull().check(sql`exp_month between 1 and 12`))
    .addColumn('exp_year', 'smallint', (c) => c.notNull())
    .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .execute()
  await sql`create unique index cards_one_default on cards (user_id) where is_default and deleted_at is null`.execute(db)
  await sql`create unique index cards_payment_method_live on cards (processor_payment_method_id) where deleted_at is null`.execute(db)

  await db.schema
    .createTable('subscription_plans')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('price_id', 'text', (c) => c.notNull().unique())
    .addColumn('trial_period_days', 'integer', (c) => c.notNull().check(sql`trial_period_days >= 0`))
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute()

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('plan_id', 'integer', (c) => c.notNull().references('subscription_plans.id'))
    .addColumn('processor_subscription_id', 'text', (c) => c.unique())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('trialing', 'active', 'canceled', 'incomplete', 'incomplete_expired')`),
    )
    .addColumn('trial_ends_at', 'timestamptz')
    .addColumn('current_period_end', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .execute()
  await sql`create unique index subscriptions_one_live on subscriptions (user_id) where deleted_at is null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['subscriptions', 'subscription_plans', 'cards', 'verifications']) {
    await db.schema.dropTable(table).ifExists().execute()
  }
}
