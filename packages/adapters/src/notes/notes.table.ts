import type { Generated, Selectable } from 'kysely'

export interface NotesTable {
  id: Generated<number>
  lesson_id: number
  author_id: number
  text: string
  summary: string
  created_at: Generated<Date>
  updated_at: Generated<Date>
}
export interface NoteFilesTable {
  note_id: number
  file_id: string
}
export type NoteRow = Selectable<NotesTable>
