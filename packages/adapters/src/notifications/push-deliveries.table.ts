import type { Generated, Selectable } from 'kysely'

export interface PushDeliveriesTable {
  id: Generated<number>
  outbox_id: number
  user_id: number
  device_id: number
  platform: 'ios' | 'android' | 'web'
  outcome: 'sent' | 'gone'
  provider_message_id: string | null
  /** The provider's latest delivery receipt for this message, if any (`delivered`, `failed`, ...). */
  receipt_status: Generated<string | null>
  receipt_at: Generated<Date | null>
  created_at: Generated<Date>
}
export type PushDeliveryRow = Selectable<PushDeliveriesTable>
