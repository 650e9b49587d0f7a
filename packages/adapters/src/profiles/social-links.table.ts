import type { Generated, Selectable } from 'kysely'

export type SocialPlatform = 'website' | 'linkedin' | 'twitter' | 'facebook' | 'instagram' | 'youtube' | 'tiktok' | 'other'

export interface SocialLinksTable {
  id: Generated<number>
  user_id: number
  platform: SocialPlatform
  url: string
  created_at: Generated<Date>
  updated_at: Generated<Date>
}
export type SocialLinkRow = Selectable<SocialLinksTable>
