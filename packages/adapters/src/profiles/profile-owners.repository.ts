import type { Kysely, Transaction } from 'kysely'
import type { OwnerDirectory, ProfileLookups } from '@tutoring/domain/profiles'
import type { RoleId, WithoutLocks } from '@tutoring/domain/shared'
import type { Database } from '../db/database'
import type { Locks } from '../db/row-locks'

const live = (db: Kysely<Database>) => db.selectFrom('users').select(['id', 'role_id', 'country']).where('deleted_at', 'is', null)
const toOwner = (row: { id: number; role_id: number; country: string }) => ({
  id: row.id,
  roleId: row.role_id as RoleId,
  country: row.country.trim(),
})

export function ownerDirectory(db: Kysely<Database>): WithoutLocks<OwnerDirectory> {
  return {
    async find(userId) {
      const row = await live(db).where('id', '=', userId).executeTakeFirst()
      return row && toOwner(row)
    },
  }
}

export function ownerLocks(trx: Transaction<Database>): Locks<OwnerDirectory> {
  return {
    async lock(userId) {
      const row = await live(trx).where('id', '=', userId).forUpdate().executeTakeFirst()
      return row && toOwner(row)
    },
  }
}

export function profileLookups(db: Kysely<Database>): ProfileLookups {
  return {
    async countryExists(code) {
      return (await db.selectFrom('countries').select('id').where('code', '=', code).executeTakeFirst()) !== undefined
    },
    async unknownLanguageIds(languageIds) {
      if (languageIds.length === 0) return []
      const known = await db.selectFrom('languages').select('id').where('id', 'in', languageIds).execute()
      const ids = new Set(known.map((r) => r.id))
      return languageIds.filter((id) => !ids.has(id))
    },
  }
}
