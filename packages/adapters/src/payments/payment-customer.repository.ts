import type { Kysely } from 'kysely'
import type { PaymentCustomerRepository } from '@tutoring/domain/payments'
import type { Database } from '../db/database'

/** `users.processor_customer_id`: set once, by whoever claims the empty column first. */
export function paymentCustomerRepository(db: Kysely<Database>): PaymentCustomerRepository {
  return {
    async customerIdOf(userId) {
      const row = await db.selectFrom('users').select('processor_customer_id').where('id', '=', userId).executeTakeFirst()
      return row?.processor_customer_id ?? null
    },
    async claim(userId, customerId) {
      const claimed = await db
        .updateTable('users')
        .set({ processor_customer_id: customerId })
        .where('id', '=', userId)
        .where('processor_customer_id', 'is', null)
        .returning('id')
        .executeTakeFirst()
      return claimed !== undefined
    },
  }
}
