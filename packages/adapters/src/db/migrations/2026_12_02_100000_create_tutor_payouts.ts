import { sql, type Kysely } from 'kysely'

// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // What the processor last said of a tutor's connected account: a charge names it as its
  // destination only while it can be paid out. `state_at` is the processor's time of that
  // word, so an older `account.updated` delivered late never undoes a newer one.
  await db.schema
    .createTable('payout_accounts')
    .addColumn('processor_account_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('payouts_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('state_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('payout_accounts_user').on('payout_accounts').column('user_id').execute()

  // Where a payment's money goes, fixed before the processor hears of it: the tutor's account
  // as the charge's destination, or none (the platform holds the tutor's share for a
  // separate transfer); the platform's fee either way; the group tying transfers to the charge.
  await db.schema
    .alterTable('payments')
    .addColumn('destination_account_id', 'text')
    .addColumn('application_fee_pence', 'integer')
    .addColumn('transfer_group', 'text')
    .addColumn('dispute_id', 'text')
    .addColumn('dispute_status', 'text')
    .addColumn('dispute_reason', 'text')
    .addColumn('dispute_amount_pence', 'integer')
    .addColumn('disputed_at', 'timestamptz')
    .execute()

  // A tutor's share of a charge the platform took alone (their account could not be paid
  // then): `waiting` until the payment is captured and the account is enabled, `queued` once
  // an outbox delivery is written for it, `sent` once the processor made the transfer.
  await db.schema
    .createTable('tutor_transfers')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('payment_id', 'integer', (c) => c.notNull().unique().references('payments.id'))
    .addColumn('tutor_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('transfer_group', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('waiting').check(sql`status in ('waiting', 'queued', 'sent')`))
    .addColumn('amount_pence', 'integer')
    .addColumn('reversed_pence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('processor_transfer_id', 'text')
    .addColumn('processor_account_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .execute()
  await db.schema.createIndex('tutor_transfers_waiting').on('tutor_transfers').columns(['tutor_id', 'status']).execute()

  // Payouts of connected accounts as the processor reports them; a failure is told to the tutor.
  await db.schema
    .createTable('tutor_payouts')
    .addColumn('processor_payout_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('amount_pence', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('failure_message', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tutor_payouts').execute()
  await db.schema.dropTable('tutor_transfers').execute()
  await db.schema
    .alterTable('payments')
    .dropColumn('destination_account_id')
    .dropColumn('application_fee_pence')
    .dropColumn('transfer_group')
    .dropColumn('dispute_id')
    .dropColumn('dispute_status')
    .dropColumn('dispute_reason')
    .dropColumn('dispute_amount_pence')
    .dropColumn('disputed_at')
    .execute()
  await db.schema.dropTable('payout_accounts').execute()
}
