import type { Generated, Selectable } from 'kysely'

export interface FilesTable {
  id: string
  owner_id: number | null
  purpose: string
  name: string
  mime_type: string
  size: number
  storage_key: string
  created_at: Generated<Date>
  deleted_at: Date | null
}
export type FileRow = Selectable<FilesTable>
