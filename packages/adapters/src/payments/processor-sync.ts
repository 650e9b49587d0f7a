import type { Kysely } from 'kysely'
import { CARD_DEFAULT_SYNC_TOPIC, CARD_DETACH_SYNC_TOPIC, ensureCustomer, type PaymentProcessor } from '@tutoring/domain/payments'
import { CUSTOMER_SYNC_TOPIC } from '@tutoring/domain/profiles'
import type { Database } from '../db/database'
import type { ProcessorSyncHandler } from '../outbox'
import { paymentCustomerRepository } from './payment-customer.repository'

/** The processor's copies of a user's customer details and cards, made after commit so the processor being down never fails a request. */
export function paymentsSyncHandlers(db: Kysely<Database>, processor: PaymentProcessor): Record<string, ProcessorSyncHandler> {
  return {
    [CUSTOMER_SYNC_TOPIC]: (data) => syncCustomerDetails(db, processor, Number(data.userId)),
    [CARD_DETACH_SYNC_TOPIC]: (data) => processor.detachCard(String(data.paymentMethodId)),
    [CARD_DEFAULT_SYNC_TOPIC]: (data) => syncDefaultCard(db, processor, Number(data.userId)),
  }
}

/**
 * PersonalDetailUpdated, AddressUpdated, MobileNumberUpdated: sends the tutor's details as
 * they are now, so a repeated or late delivery can only restore the truth.
 */
async function syncCustomerDetails(db: Kysely<Database>, processor: PaymentProcessor, userId: number): Promise<void> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'firstname', 'lastname'])
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
  if (!user) return
  const details = await db.selectFrom('personal_details').select('date_of_birth').where('user_id', '=', userId).executeTakeFirst()
  const address = await db.selectFrom('addresses').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').executeTakeFirst()
  const mobile = await db.selectFrom('mobile_numbers').select('number').where('user_id', '=', userId).orderBy('id', 'desc').executeTakeFirst()
  await processor.updateCustomer(await ensureCustomer({ processor, customers: paymentCustomerRepository(db) }, user), {
    dateOfBirth: details?.date_of_birth ?? null,
    phone: mobile?.number ?? null,
    address: address
      ? { line1: address.line1, line2: address.line2, city: address.city, postcode: address.postcode, country: address.country.trim() }
      : null,
  })
}

/** Sends the user's default card as it is now, so a late or repeated delivery restores the truth. */
async function syncDefaultCard(db: Kysely<Database>, processor: PaymentProcessor, userId: number): Promise<void> {
  const row = await db
    .selectFrom('cards as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select(['c.processor_payment_method_id', 'u.processor_customer_id'])
    .where('c.user_id', '=', userId)
    .where('c.is_default', '=', true)
    .where('c.deleted_at', 'is', null)
    .executeTakeFirst()
  if (!row?.processor_customer_id) return
  await processor.setDefaultCard(row.processor_customer_id, row.processor_payment_method_id)
}
