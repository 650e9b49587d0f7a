import { sql, type Kysely } from 'kysely'
import type { NewUser, User, UserPatch, UserRepository, UserWithPassword } from '@tutoring/domain/accounts'
import type { RoleId } from '@tutoring/domain/shared'
import type { Database } from '../db/database'
import type { UserRow } from './users.table'

/** The columns a `User` is made of: a lookup that needs only the user reads only these. */
export const USER_COLUMNS = ['id', 'email', 'username', 'firstname', 'lastname', 'role_id', 'country', 'email_verified_at', 'created_at'] as const

export const rowToUser = (row: Pick<UserRow, (typeof USER_COLUMNS)[number]>): User => ({
  id: row.id,
  email: row.email,
  username: row.username,
  firstname: row.firstname,
  lastname: row.lastname,
  roleId: row.role_id as RoleId,
  country: row.country.trim(),
  emailVerifiedAt: row.email_verified_at,
  createdAt: row.created_at,
})

export function userRepository(db: Kysely<Database>): UserRepository {
  const live = () => db.selectFrom('users').selectAll().where('deleted_at', 'is', null)
  return {
    async findById(id) {
      const row = await live().where('id', '=', id).executeTakeFirst()
      return row && rowToUser(row)
    },
    async findByEmailWithPassword(email): Promise<UserWithPassword | undefined> {
      const row = await live().where('email', '=', email).executeTakeFirst()
      return row && { ...rowToUser(row), passwordHash: row.password_hash }
    },
    async findByUsername(username) {
      const row = await live()
        .where(sql`lower(username)`, '=', username.toLowerCase())
        .executeTakeFirst()
      return row && rowToUser(row)
    },
    async isEmailTaken(email) {
      const row = await live().select('id').where('email', '=', email).executeTakeFirst()
      return row !== undefined
    },
    async isUsernameTaken(username, exceptUserId) {
      let query = live()
        .select('id')
        .where(sql`lower(username)`, '=', username.toLowerCase())
      if (exceptUserId !== undefined) query = query.where('id', '<>', exceptUserId)
      return (await query.executeTakeFirst()) !== undefined
    },
    async listByUsernamePrefix(prefix, limit) {
      const escaped = prefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)
      const rows = await live()
        .where(sql<boolean>`lower(username) like ${`${escaped}%`}`)
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit)
        .execute()
      return rows.map(rowToUser)
    },
    async insert(user: NewUser) {
      const row = await db
        .insertInto('users')
        .values({
          email: user.email,
          password_hash: user.passwordHash,
          username: user.username,
          firstname: user.firstname,
          lastname: user.lastname,
          role_id: user.roleId,
          country: user.country,
          processor_customer_id: user.processorCustomerId,
          email_verified_at: null,
          processor_account_id: null,
          deleted_at: null,
        })
        .onConflict((oc) => oc.doNothing())
        .returningAll()
        .executeTakeFirst()
      return row && rowToUser(row)
    },
    async update(id, patch: UserPatch) {
      const row = await db
        .updateTable('users')
        .set({ ...patch, updated_at: sql<Date>`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToUser(row)
    },
    async setPasswordHash(id, passwordHash) {
      await db.updateTable('users').set({ password_hash: passwordHash, updated_at: sql<Date>`now()` }).where('id', '=', id).execute()
    },
    async markEmailVerified(id, at) {
      await db.updateTable('users').set({ email_verified_at: at }).where('id', '=', id).execute()
    },
    async softDelete(id, at) {
      await db.updateTable('users').set({ deleted_at: at, updated_at: at }).where('id', '=', id).execute()
    },
  }
}
