import { sql, type Kysely } from 'kysely'

// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // A tutor's payout account. The full account number goes to the processor only (for a
  // single-use token); this keeps the last four digits. Linked once staff attach it to the
  // tutor's connected account at the processor.
  await db.schema
    .createTable('bank_accounts')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_holder_name', 'text', (c) => c.notNull())
    .addColumn('sort_code', 'char(6)', (c) => c.notNull().check(sql`sort_code ~ '^[0-9]{6}$'`))
    .addColumn('last4', 'char(4)', (c) => c.notNull().check(sql`last4 ~ '^[0-9]{4}$'`))
    .addColumn('processor_token', 'text')
    .addColumn('processor_bank_account_id', 'text')
    .addColumn('processor_account_id', 'text')
    .addColumn('linked_at', 'timestamptz')
    .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .addCheckConstraint('bank_accounts_linked_whole', sql`(linked_at is null) = (processor_bank_account_id is null)`)
    .execute()
  await sql`create unique index bank_accounts_one_default on bank_accounts (user_id) where is_default and deleted_at is null`.execute(db)
  await sql`create index bank_accounts_user on bank_accounts (user_id) where deleted_at is null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bank_accounts').ifExists().execute()
}
