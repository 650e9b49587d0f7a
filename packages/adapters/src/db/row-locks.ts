import { sql, type Transaction } from 'kysely'
import type { WithoutLocks } from '@tutoring/domain/shared'
import type { Database } from './database'
import { compiledOnce } from './prepared-statements'

/**
 * The `lock*` methods of a repository port. They are built from a `Transaction` only, so
 * a lock that would end with its own statement does not compile.
 */
export type Locks<Repo> = Omit<Repo, keyof WithoutLocks<Repo>>

/**
 * Holds a user's row until the transaction ends: per-user rules (cards, bank accounts, a tutor's
 * bookings and schedule) run one at a time. NO KEY UPDATE, not UPDATE: the lock never changes the
 * user's key, so rows that merely name the user (a booking event, an outbox row) can still be
 * written by a transaction holding another lock, such as a cancellation holding the booking the
 * holder waits for next; FOR UPDATE deadlocked a reschedule proposal with the tutor cancelling.
 */
export async function lockUserRow(trx: Transaction<Database>, userId: number): Promise<void> {
  await trx.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().execute()
}

/** The users' rows, held in id order; compiled once, as it runs in every booking. */
const lockUserRowsStatement = compiledOnce<{ userIds: readonly number[] }, { id: number }>((db, v) =>
  db.selectFrom('users').select('id').where(sql<boolean>`id = any(${v('userIds')}::bigint[])`).orderBy('id').forNoKeyUpdate().compile(),
)

/** Holds several users' rows, taken in id order so that two transactions never wait on each other. */
export async function lockUserRows(trx: Transaction<Database>, userIds: readonly number[]): Promise<void> {
  await trx.executeQuery(lockUserRowsStatement(trx, { userIds }))
}
