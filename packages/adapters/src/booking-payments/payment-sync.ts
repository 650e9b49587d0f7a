import type { Kysely } from 'kysely'
import { PAYMENT_SYNC_TOPICS } from '@tutoring/domain/booking'
import { CARD_DEFAULT_SYNC_TOPIC, CARD_DETACH_SYNC_TOPIC, ensureCustomer, type PaymentProcessor } from '@tutoring/domain/payments'
import { CUSTOMER_SYNC_TOPIC } from '@tutoring/domain/profiles'
import type { Database } from '../db/database'
import { paymentCustomerRepository } from '../payments/payment-customer.repository'
import type { ProcessorSyncHandler } from '../outbox/outbox-worker'
import { captureFee, payoutSyncHandlers, refundRouting, reverseSeparateTransfer } from './payout-sync'

/** Processor copies of local records, made after commit so the processor being down never fails a request. */
export function processorSyncHandlers(db: Kysely<Database>, processor: PaymentProcessor): Record<string, ProcessorSyncHandler> {
  return {
    'subscription.create': async (data) => {
      const subscriptionId = Number(data.subscriptionId)
      const row = await db
        .selectFrom('subscriptions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .innerJoin('subscription_plans as p', 'p.id', 's.plan_id')
        .select(['s.id', 's.processor_subscription_id', 's.trial_ends_at', 'u.id as user_id', 'u.email', 'u.firstname', 'u.lastname', 'u.processor_customer_id', 'p.price_id', 'p.trial_period_days'])
        .where('s.id', '=', subscriptionId)
        .executeTakeFirst()
      if (!row || row.processor_subscription_id) return
      let customerId = row.processor_customer_id
      if (!customerId) {
        customerId = (await processor.createCustomer({ email: row.email, name: `${row.firstname} ${row.lastname}`, idempotencyKey: `subscription.create:${subscriptionId}:customer` })).customerId
        await db.updateTable('users').set({ processor_customer_id: customerId }).where('id', '=', row.user_id).execute()
      }
      // Keyed by the subscription row: the outbox retrying after a lost answer gets the first subscription back, not a second one.
      const created = await processor.createSubscription({ customerId, priceId: row.price_id, trialPeriodDays: row.trial_period_days, idempotencyKey: `subscription.create:${subscriptionId}` })
      await db
        .updateTable('subscriptions')
        .set({ processor_subscription_id: created.subscriptionId, current_period_end: created.currentPeriodEnd })
        .where('id', '=', subscriptionId)
        .where('processor_subscription_id', 'is', null)
        .execute()
    },
    [CUSTOMER_SYNC_TOPIC]: (data) => syncCustomerDetails(db, processor, Number(data.userId)),
    [CARD_DETACH_SYNC_TOPIC]: (data) => processor.detachCard(String(data.paymentMethodId)),
    [CARD_DEFAULT_SYNC_TOPIC]: (data) => syncDefaultCard(db, processor, Number(data.userId)),
    ...paymentSettlementHandlers(db, processor),
    ...payoutSyncHandlers(db, processor),
  }
}

/**
 * The money side of a cancellation, decline or expiry, decided and committed with the
 * booking's new state. Each call carries an idempotency key made of the topic and the
 * payment, so a retry after a timeout never refunds or captures twice; the payment row is
 * updated after the processor answered, so a failure leaves the row as it was for the retry.
 */
function paymentSettlementHandlers(db: Kysely<Database>, processor: PaymentProcessor): Record<string, ProcessorSyncHandler> {
  const load = (id: number) => db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst()
  return {
    [PAYMENT_SYNC_TOPICS.refund]: async (data) => {
      const payment = await load(Number(data.paymentId))
      if (!payment?.processor_payment_intent_id) return
      const amountPence = Number(data.amountPence)
      const refund = await processor.refundPayment(payment.processor_payment_intent_id, {
        amountPence,
        idempotencyKey: `${PAYMENT_SYNC_TOPICS.refund}:${payment.id}`,
        ...refundRouting(payment),
      })
      await db.updateTable('payments').set({ refunded_pence: refund.amountPence, updated_at: new Date() }).where('id', '=', payment.id).execute()
      await reverseSeparateTransfer(db, processor, payment.id)
    },
    [PAYMENT_SYNC_TOPICS.capture]: async (data) => {
      const payment = await load(Number(data.paymentId))
      if (!payment?.processor_payment_intent_id) return
      const current = await processor.retrievePaymentIntent(payment.processor_payment_intent_id)
      // A capture of the kept part that already went through (a retry after a lost answer) is done.
      const pi =
        current.status === 'requires_capture'
          ? await processor.capturePaymentIntent(payment.processor_payment_intent_id, {
              amountPence: Number(data.amountPence),
              idempotencyKey: `${PAYMENT_SYNC_TOPICS.capture}:${payment.id}`,
              ...captureFee(payment, Number(data.amountPence)),
            })
          : current
      await db
        .updateTable('payments')
        .set({
          status: pi.status,
          captured_pence: pi.amountReceivedPence,
          refunded_pence: payment.amount_pence - pi.amountReceivedPence,
          capture_at: null,
          updated_at: new Date(),
        })
        .where('id', '=', payment.id)
        .execute()
    },
    [PAYMENT_SYNC_TOPICS.cancel]: async (data) => {
      const payment = await load(Number(data.paymentId))
      if (!payment) return
      let intentId = payment.processor_payment_intent_id
      if (!intentId) {
        if (payment.status !== 'requires_confirmation') return
        // The creating call went unanswered: whatever intent the processor made for this row is
        // the one to void. None made, nothing is held.
        const found = await processor.findPaymentIntentByPaymentId(payment.id)
        if (!found) {
          await db
            .updateTable('payments')
            .set({ status: 'canceled', authorize_at: null, capture_at: null, updated_at: new Date() })
            .where('id', '=', payment.id)
            .where('processor_payment_intent_id', 'is', null)
            .execute()
          return
        }
        intentId = found.id
        await db.updateTable('payments').set({ processor_payment_intent_id: intentId, updated_at: new Date() }).where('id', '=', payment.id).execute()
      }
      const current = await processor.retrievePaymentIntent(intentId)
      const pi =
        current.status === 'canceled' || current.status === 'succeeded'
          ? current
          : await processor.cancelPaymentIntent(intentId, { idempotencyKey: `${PAYMENT_SYNC_TOPICS.cancel}:${payment.id}` })
      await db
        .updateTable('payments')
        .set({ status: pi.status, capture_at: null, refunded_pence: pi.status === 'canceled' ? payment.amount_pence : payment.refunded_pence, updated_at: new Date() })
        .where('id', '=', payment.id)
        .execute()
    },
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
