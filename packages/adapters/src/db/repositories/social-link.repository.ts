import { sql, type Kysely } from 'kysely'
import type { OwnedRecords, SocialLink, SocialLinkFields } from '@tutoring/domain'
import type { Database } from '../database'
import type { SocialLinkRow } from '../tables/social-links.table'

const rowToSocialLink = (row: SocialLinkRow): SocialLink => ({ id: row.id, userId: row.user_id, platform: row.platform, url: row.url })

export function socialLinkRepository(db: Kysely<Database>): OwnedRecords<SocialLink, SocialLinkFields> {
  return {
    async listByUser(userId) {
      const rows = await db.selectFrom('social_links').selectAll().where('user_id', '=', userId).orderBy('id').execute()
      return rows.map(rowToSocialLink)
    },
    async findById(id) {
      const row = await db.selectFrom('social_links').selectAll().where('id', '=', id).executeTakeFirst()
      return row && rowToSocialLink(row)
    },
    async insert(userId, { platform, url }) {
      const row = await db.insertInto('social_links').values({ user_id: userId, platform, url }).returningAll().executeTakeFirstOrThrow()
      return rowToSocialLink(row)
    },
    async update(id, { platform, url }) {
      const row = await db
        .updateTable('social_links')
        .set({ platform, url, updated_at: sql<Date>`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToSocialLink(row)
    },
    async remove(id) {
      await db.deleteFrom('social_links').where('id', '=', id).execute()
    },
  }
}
