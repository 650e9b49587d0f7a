import type { Generated } from 'kysely'

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
