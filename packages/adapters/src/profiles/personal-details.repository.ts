import { sql, type Kysely } from 'kysely'
import type { PersonalDetails, PersonalDetailsRepository } from '@tutoring/domain/profiles'
import type { Database } from '../db/database'
import type { PersonalDetailRow } from './personal-details.table'

const rowToPersonalDetails = (row: PersonalDetailRow & { language_ids: number[] }): PersonalDetails => ({
  id: row.id,
  userId: row.user_id,
  dateOfBirth: row.date_of_birth,
  gender: row.gender,
  languageIds: row.language_ids.map(Number),
})

export function personalDetailsRepository(db: Kysely<Database>): PersonalDetailsRepository {
  const withLanguages = () =>
    db
      .selectFrom('personal_details as p')
      .selectAll('p')
      .select(
        sql<number[]>`coalesce((select array_agg(ul.language_id order by ul.language_id) from user_languages ul where ul.user_id = p.user_id), '{}')`.as(
          'language_ids',
        ),
      )
  const findById = async (id: number) => {
    const row = await withLanguages().where('p.id', '=', id).executeTakeFirst()
    return row && rowToPersonalDetails(row)
  }
  return {
    async listByUser(userId) {
      const rows = await withLanguages().where('p.user_id', '=', userId).orderBy('p.id').execute()
      return rows.map(rowToPersonalDetails)
    },
    findById,
    async update(id, patch) {
      await db
        .updateTable('personal_details')
        .set({ date_of_birth: patch.dateOfBirth, gender: patch.gender, updated_at: sql<Date>`now()` })
        .where('id', '=', id)
        .execute()
      return (await findById(id))!
    },
    async setLanguages(userId, languageIds) {
      await db.deleteFrom('user_languages').where('user_id', '=', userId).execute()
      if (languageIds.length === 0) return
      await db
        .insertInto('user_languages')
        .values(languageIds.map((languageId) => ({ user_id: userId, language_id: languageId })))
        .execute()
    },
  }
}
