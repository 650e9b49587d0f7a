import { sql, type Kysely } from 'kysely'

// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // A token may be 4096 characters (a web device's is its whole PushSubscription JSON), past
  // what a btree entry holds (about 2700 bytes): such a token failed its insert. One token,
  // one row, is kept on its md5; lookups by the token use a hash index, which stores no value.
  // (user_id, push_token) is implied by one row per token, and holds the token whole too.
  await db.schema.alterTable('user_devices').dropConstraint('user_devices_token').execute()
  await db.schema.dropIndex('user_devices_push_token').ifExists().execute()
  await sql`create unique index user_devices_push_token_md5 on user_devices (md5(push_token))`.execute(db)
  await sql`create index user_devices_push_token_hash on user_devices using hash (push_token)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('user_devices_push_token_hash').ifExists().execute()
  await db.schema.dropIndex('user_devices_push_token_md5').ifExists().execute()
  await db.schema.createIndex('user_devices_push_token').on('user_devices').column('push_token').unique().execute()
  await db.schema.alterTable('user_devices').addUniqueConstraint('user_devices_token', ['user_id', 'push_token']).execute()
}
