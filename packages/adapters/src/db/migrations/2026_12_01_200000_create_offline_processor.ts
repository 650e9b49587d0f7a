import { sql, type Kysely } from 'kysely'

// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // The offline processor's objects, shaped as the processor's (Stripe's) own, so a restart
  // between pay and capture loses nothing and every instance sees the same intents.
  await db.schema
    .createTable('offline_payment_methods')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('customer_id', 'text')
    // The documented test card it was made from (pm_card_visa, ...), which decides outcomes.
    .addColumn('test_card', 'text')
    .addColumn('brand', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('exp_month', 'integer', (c) => c.notNull())
    .addColumn('exp_year', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createTable('offline_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text')
    .addColumn('payouts_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createTable('offline_payment_intents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('payment_method_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('requires_payment_method', 'requires_confirmation', 'requires_action', 'processing', 'requires_capture', 'succeeded', 'canceled')`),
    )
    .addColumn('capture_method', 'text', (c) => c.notNull().check(sql`capture_method in ('manual', 'automatic')`))
    .addColumn('amount_pence', 'integer', (c) => c.notNull().check(sql`amount_pence > 0`))
    .addColumn('amount_capturable_pence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('amount_captured_pence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('amount_received_pence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('client_secret', 'text', (c) => c.notNull())
    .addColumn('redirect_url', 'text')
    .addColumn('latest_charge_id', 'text', (c) => c.unique())
    .addColumn('destination_account_id', 'text', (c) => c.references('offline_accounts.id'))
    .addColumn('application_fee_pence', 'integer')
    .addColumn('application_fee_refunded_pence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('transfer_id', 'text')
    .addColumn('transfer_group', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('offline_payment_intents_amounts', sql`amount_received_pence <= amount_captured_pence and amount_captured_pence <= amount_pence`)
    .execute()
  await db.schema
    .createTable('offline_setup_intents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('payment_method_id', 'text')
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('requires_payment_method', 'requires_confirmation', 'requires_action', 'processing', 'canceled', 'succeeded')`),
    )
    .addColumn('client_secret', 'text', (c) => c.notNull())
    .addColumn('redirect_url', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createTable('offline_transfers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('offline_accounts.id'))
    .addColumn('amount_pence', 'integer', (c) => c.notNull().check(sql`amount_pence >= 0`))
    .addColumn('reversed_pence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('source_charge_id', 'text')
    .addColumn('transfer_group', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('offline_transfers_reversed', sql`reversed_pence between 0 and amount_pence`)
    .execute()
  await db.schema
    .createTable('offline_refunds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('payment_intent_id', 'text', (c) => c.notNull().references('offline_payment_intents.id'))
    .addColumn('amount_pence', 'integer', (c) => c.notNull())
    .addColumn('transfer_reversed_pence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('application_fee_refunded_pence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  // An idempotency key's first answer, returned again for a repeat, as the processor does.
  await db.schema
    .createTable('offline_processor_requests')
    .addColumn('idempotency_key', 'text', (c) => c.primaryKey())
    .addColumn('answer', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'offline_processor_requests',
    'offline_refunds',
    'offline_transfers',
    'offline_setup_intents',
    'offline_payment_intents',
    'offline_accounts',
    'offline_payment_methods',
  ]) {
    await db.schema.dropTable(table).ifExists().execute()
  }
}
