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
export interface ReviewsTable {
  id: Generated<number>
  tutor_id: number
  reviewer_id: number
  knowledge: number
  communication: number
  punctuality: number
  comment: string | null
  created_at: Generated<Date>
}
export type NoteRow = Selectable<NotesTable>
