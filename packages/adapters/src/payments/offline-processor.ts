import { randomBytes } from 'node:crypto'
import { sql, type Kysely, type Selectable } from 'kysely'
import { err, ok, type Result } from 'neverthrow'
import {
  cardRejected,
  paymentFailed,
  type CardDetails,
  type CardRejected,
  type ConnectedAccount,
  type PaymentIntent,
  type PaymentProcessor,
  type SetupIntent,
  type Transfer,
} from '@tutoring/domain/payments'
import type { DatabaseHandle } from '../db/connect'
import type { Database } from '../db/database'
import type { OfflinePaymentIntentsTable, OfflineSetupIntentsTable, OfflineTransfersTable } from './offline-processor.table'
import { idleStorage } from '../db/idle-storage'
import { ambientTransaction } from '../db/unit-of-work'

/** Its own ids are base64url, so they may hold `-` and `_`: every check below accepts both. */
const idOf = (prefix: string) => `${prefix}_offline_${randomBytes(9).toString('base64url')}`
const secretOf = (id: string) => `${id}_secret_${randomBytes(12).toString('base64url')}`

type TestCard = Omit<CardDetails, 'paymentMethodId'> | { rejected: string }

/** Stripe's documented test payment methods, so clients can exercise the same cases offline. */
const TEST_CARDS: Record<string, TestCard> = {
  pm_card_visa: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', expMonth: 12, expYear: 2034 },
  pm_card_amex: { brand: 'amex', last4: '8431', expMonth: 12, expYear: 2034 },
  pm_card_visa_debit: { brand: 'visa', last4: '5556', expMonth: 12, expYear: 2034 },
  pm_card_threeDSecure2Required: { brand: 'visa', last4: '3155', expMonth: 12, expYear: 2034 },
  pm_card_authenticationRequired: { brand: 'visa', last4: '3184', expMonth: 12, expYear: 2034 },
  pm_card_chargeDeclined: { rejected: 'Your card was declined.' },
  pm_card_chargeDeclinedExpiredCard: { rejected: 'Your card has expired.' },
  pm_card_chargeDeclinedIncorrectCvc: { rejected: "Your card's security code is incorrect." },
}
const VISA = TEST_CARDS.pm_card_visa as Omit<CardDetails, 'paymentMethodId'>
const PM_ID = /^pm_[A-Za-z0-9_-]+$/

function checkTestCard(paymentMethodId: string): Result<CardDetails, CardRejected> {
  if (!PM_ID.test(paymentMethodId)) return err(cardRejected('No such payment method.'))
  const known = TEST_CARDS[paymentMethodId] ?? VISA
  if ('rejected' in known) return err(cardRejected(known.rejected))
  return ok({ paymentMethodId, ...known })
}

/** Needs the customer on a page of the card issuer before it can be authorised. */
const ACTION_REQUIRED = new Set(['pm_card_threeDSecure2Required', 'pm_card_authenticationRequired'])
/** Wants the customer even off session: such a payment fails `authentication_required`, as Stripe's does. */
const ALWAYS_AUTHENTICATE = 'pm_card_authenticationRequired'

const withQuery = (url: string, key: string, value: string) => `${url}${url.includes('?') ? '&' : '?'}${key}=${value}`

/**
 * The built-in processor of the embedded mode: no network, the same outcomes as the real
 * one for the same test payment methods (any other `pm_...` id behaves like a Visa), and
 * the same state model, kept in the database (`offline_*` tables): a restart between pay
 * and capture loses nothing and every instance sees the same intents. State changes are
 * single conditional statements, so two instances racing on one intent cannot both apply.
 * A repeated idempotency key answers the first answer, as the real API does.
 *
 * Connect, offline: a connected account can receive transfers once a bank account is added
 * (there is no onboarding to finish). A destination charge's capture records the transfer
 * of the captured amount less the application fee; refunds reverse it and refund the fee
 * in proportion when asked. Billing portal links lead to `{baseUrl}/billing/offline-portal`.
 *
 * Called from inside a unit of work's transaction on the embedded database (one session,
 * held by that transaction), it works in that transaction; elsewhere on the database itself.
 */
export function offlineProcessor(database: Pick<DatabaseHandle, 'db' | 'kind'>, options: { now?: () => Date; baseUrl?: string } = {}): PaymentProcessor {
  const now = options.now ?? (() => new Date())
  const baseUrl = options.baseUrl ?? 'http://localhost:3000'
  // The transaction `once` runs its work in, so the work and its remembered answer commit together.
  const scope = idleStorage<Kysely<Database>>()
  const q = (): Kysely<Database> => scope.getStore() ?? (database.kind === 'pglite' ? (ambientTransaction() ?? database.db) : database.db)

  /**
   * The work of an idempotency key, done once: the work and the remembered answer commit in
   * one transaction, under a lock on the key, so neither a process killed in between nor two
   * callers racing can leave an effect no answer names (a second authorisation on retry).
   */
  const once = async <T>(key: string, run: () => Promise<T>): Promise<T> => {
    const remembered = async () => (await q().selectFrom('offline_processor_requests').select('answer').where('idempotency_key', '=', key).executeTakeFirst())?.answer as T | undefined
    const doOnce = async () => {
      const stored = await remembered()
      if (stored !== undefined) return stored
      const answer = await run()
      await q().insertInto('offline_processor_requests').values({ idempotency_key: key, answer: JSON.stringify(answer) }).execute()
      return answer
    }
    // Already inside a transaction (the embedded database has one session, held by the caller's unit of work): that one makes it atomic.
    if (scope.getStore() || (database.kind === 'pglite' && ambientTransaction())) return doOnce()
    return database.db.transaction().execute((trx) =>
      scope.run(trx, async () => {
        await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx)
        return doOnce()
      }),
    )
  }

  const findIntent = async (id: string) => {
    const row = await q().selectFrom('offline_payment_intents').selectAll().where('id', '=', id).executeTakeFirst()
    if (!row) throw new Error(`No such payment_intent: '${id}'`)
    return row
  }
  const findSetup = async (id: string) => {
    const row = await q().selectFrom('offline_setup_intents').selectAll().where('id', '=', id).executeTakeFirst()
    if (!row) throw new Error(`No such setupintent: '${id}'`)
    return row
  }
  const storedMethod = (id: string) => q().selectFrom('offline_payment_methods').selectAll().where('id', '=', id).executeTakeFirst()
  /** The test card behind a payment method id: itself, or the one it was made from. */
  const testCardOf = async (paymentMethodId: string) => (await storedMethod(paymentMethodId))?.test_card ?? paymentMethodId

  /** Saves a card for the customer; a test token becomes a payment method of its own, as in Stripe. */
  const attach = async (customerId: string | null, paymentMethodId: string): Promise<Result<CardDetails, CardRejected>> => {
    const known = await storedMethod(paymentMethodId)
    if (known) return ok(cardOf(known))
    const checked = checkTestCard(paymentMethodId)
    if (checked.isErr()) return checked
    const fromToken = paymentMethodId in TEST_CARDS
    const card = { ...checked.value, paymentMethodId: fromToken ? idOf('pm') : paymentMethodId }
    await q()
      .insertInto('offline_payment_methods')
      .values({ id: card.paymentMethodId, customer_id: customerId, test_card: fromToken ? paymentMethodId : null, brand: card.brand, last4: card.last4, exp_month: card.expMonth, exp_year: card.expYear })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute()
    return ok(card)
  }

  /** Capture of a destination charge transfers what was captured less the fee to the account. */
  const transferOnCapture = async (intent: Selectable<OfflinePaymentIntentsTable>, captured: number) => {
    if (!intent.destination_account_id) return
    const id = idOf('tr')
    await q()
      .insertInto('offline_transfers')
      .values({ id, account_id: intent.destination_account_id, amount_pence: captured - (intent.application_fee_pence ?? 0), source_charge_id: intent.latest_charge_id, transfer_group: intent.transfer_group })
      .execute()
    await q().updateTable('offline_payment_intents').set({ transfer_id: id }).where('id', '=', intent.id).execute()
  }

  return {
    mode: 'offline',
    async createCustomer() {
      return { customerId: idOf('cus') }
    },
    async deleteCustomer() {},
    async updateCustomer() {},
    attachCard: (customerId, paymentMethodId) => attach(customerId, paymentMethodId),
    async checkCard(paymentMethodId) {
      const known = await storedMethod(paymentMethodId)
      return known ? ok(cardOf(known)) : checkTestCard(paymentMethodId)
    },
    async setDefaultCard() {},
    async detachCard(paymentMethodId) {
      await q().updateTable('offline_payment_methods').set({ customer_id: null }).where('id', '=', paymentMethodId).execute()
    },
    async tokenizeBankAccount() {
      return ok({ token: idOf('btok') })
    },
    async createExternalAccount({ accountId, email, idempotencyKey }) {
      return once(`external_account:${idempotencyKey}`, async () => {
        const id = accountId ?? idOf('acct')
        await q()
          .insertInto('offline_accounts')
          .values({ id, email, payouts_enabled: true })
          .onConflict((oc) => oc.column('id').doUpdateSet({ payouts_enabled: true, updated_at: now() }))
          .execute()
        return { accountId: id, bankAccountId: idOf('ba') }
      })
    },
    async retrieveConnectedAccount(accountId) {
      const row = await q().selectFrom('offline_accounts').selectAll().where('id', '=', accountId).executeTakeFirst()
      if (!row) throw new Error(`No such account: '${accountId}'`)
      const account: ConnectedAccount = {
        id: row.id,
        payoutsEnabled: row.payouts_enabled,
        chargesEnabled: row.payouts_enabled,
        detailsSubmitted: row.payouts_enabled,
        requirementsDue: row.payouts_enabled ? [] : ['external_account'],
      }
      return account
    },
    async createBillingPortalSession({ customerId, flow }) {
      const query = new URLSearchParams({ customer: customerId, flow })
      return { url: `${baseUrl.replace(/\/$/, '')}/billing/offline-portal?${query.toString()}` }
    },
    async createSubscription({ trialPeriodDays }) {
      const trialEndsAt = trialPeriodDays > 0 ? new Date(now().getTime() + trialPeriodDays * 86_400_000) : null
      return {
        subscriptionId: idOf('sub'),
        status: trialPeriodDays > 0 ? 'trialing' : 'active',
        trialEndsAt,
        currentPeriodEnd: trialEndsAt ?? new Date(now().getTime() + 30 * 86_400_000),
      }
    },
    async createPaymentIntent(input) {
      // The remembered answer is plain data (a Result would lose its methods as JSON).
      const answer = await once<{ failed: string; code?: string; paymentIntentId?: string } | { intentId: string }>(`payment_intent:${input.idempotencyKey}`, async () => {
        if (!PM_ID.test(input.paymentMethodId)) return { failed: 'No such payment method.' }
        const card = await testCardOf(input.paymentMethodId)
        const known = TEST_CARDS[card]
        if (known && 'rejected' in known) return { failed: known.rejected, code: 'card_declined' }
        const destination = input.destination ?? null
        if (destination) {
          const account = await q().selectFrom('offline_accounts').select('id').where('id', '=', destination.accountId).executeTakeFirst()
          if (!account) throw new Error(`No such destination: '${destination.accountId}'`)
          if (destination.applicationFeePence < 0 || destination.applicationFeePence > input.amountPence) throw new Error('The application fee must be between 0 and the amount.')
        }
        const id = idOf('pi')
        const authenticate = card === ALWAYS_AUTHENTICATE && input.offSession
        const needsAction = ACTION_REQUIRED.has(input.paymentMethodId) && !input.offSession
        const authorised = !authenticate && !needsAction
        const manual = input.captureMethod === 'manual'
        const status = authenticate ? 'requires_payment_method' : needsAction ? 'requires_action' : manual ? 'requires_capture' : 'succeeded'
        const row = await q()
          .insertInto('offline_payment_intents')
          .values({
            id,
            customer_id: input.customerId,
            payment_method_id: input.paymentMethodId,
            status,
            capture_method: input.captureMethod,
            amount_pence: input.amountPence,
            amount_capturable_pence: status === 'requires_capture' ? input.amountPence : 0,
            amount_captured_pence: status === 'succeeded' ? input.amountPence : 0,
            amount_received_pence: status === 'succeeded' ? input.amountPence : 0,
            client_secret: secretOf(id),
            redirect_url: needsAction ? withQuery(input.returnUrl, 'payment_intent', id) : null,
            latest_charge_id: authorised ? idOf('ch') : null,
            destination_account_id: destination?.accountId ?? null,
            application_fee_pence: destination?.applicationFeePence ?? null,
            transfer_group: input.transferGroup ?? null,
            metadata: JSON.stringify(input.metadata),
          })
          .returningAll()
          .executeTakeFirstOrThrow()
        if (status === 'succeeded') await transferOnCapture(row, input.amountPence)
        if (authenticate) return { failed: 'Your card was declined. This transaction requires authentication.', code: 'authentication_required', paymentIntentId: id }
        return { intentId: id }
      })
      if ('failed' in answer) return err(paymentFailed(answer.failed, { code: answer.code, paymentIntentId: answer.paymentIntentId }))
      return ok(presentIntent(await findIntent(answer.intentId)))
    },
    async retrievePaymentIntent(paymentIntentId) {
      return presentIntent(await findIntent(paymentIntentId))
    },
    async findPaymentIntentByPaymentId(paymentId) {
      const row = await q()
        .selectFrom('offline_payment_intents')
        .selectAll()
        .where(sql<string>`metadata->>'payment_id'`, '=', String(paymentId))
        .orderBy('created_at', 'desc')
        .executeTakeFirst()
      return row ? presentIntent(row) : null
    },
    async capturePaymentIntent(paymentIntentId, { amountPence, applicationFeePence, idempotencyKey }) {
      await once(`capture:${idempotencyKey}`, async () => {
        const current = await findIntent(paymentIntentId)
        if (current.status !== 'requires_capture') throw new Error(`This PaymentIntent could not be captured because it has a status of ${current.status}.`)
        const amount = amountPence ?? current.amount_capturable_pence
        if (amount > current.amount_capturable_pence) throw new Error('The amount to capture is greater than the amount capturable.')
        const fee = current.application_fee_pence === null ? null : (applicationFeePence ?? current.application_fee_pence)
        if ((fee ?? 0) > amount) throw new Error('The application fee cannot be greater than the amount captured.')
        const captured = await q()
          .updateTable('offline_payment_intents')
          .set({ status: 'succeeded', amount_capturable_pence: 0, amount_captured_pence: amount, amount_received_pence: amount, application_fee_pence: fee, updated_at: now() })
          .where('id', '=', paymentIntentId)
          .where('status', '=', 'requires_capture')
          .returningAll()
          .executeTakeFirst()
        if (!captured) throw new Error('This PaymentIntent could not be captured because it has a status of succeeded.')
        await transferOnCapture(captured, amount)
        return { paymentIntentId }
      })
      return presentIntent(await findIntent(paymentIntentId))
    },
    async cancelPaymentIntent(paymentIntentId, { idempotencyKey }) {
      await once(`cancel:${idempotencyKey}`, async () => {
        const canceled = await q()
          .updateTable('offline_payment_intents')
          .set({ status: 'canceled', amount_capturable_pence: 0, updated_at: now() })
          .where('id', '=', paymentIntentId)
          .where('status', 'not in', ['succeeded', 'canceled'])
          .returning('id')
          .executeTakeFirst()
        if (!canceled) {
          const current = await findIntent(paymentIntentId)
          throw new Error(`You cannot cancel this PaymentIntent because it has a status of ${current.status}.`)
        }
        return { paymentIntentId }
      })
      return presentIntent(await findIntent(paymentIntentId))
    },
    async refundPayment(paymentIntentId, { amountPence, idempotencyKey, reverseTransfer, refundApplicationFee }) {
      return once(`refund:${idempotencyKey}`, async () => {
        const current = await findIntent(paymentIntentId)
        if (current.status !== 'succeeded') throw new Error(`This PaymentIntent has a status of ${current.status} and cannot be refunded.`)
        const refunded = await q()
          .updateTable('offline_payment_intents')
          .set((eb) => ({ amount_received_pence: eb('amount_received_pence', '-', amountPence), updated_at: now() }))
          .where('id', '=', paymentIntentId)
          .where('amount_received_pence', '>=', amountPence)
          .returningAll()
          .executeTakeFirst()
        if (!refunded) throw new Error('Refund amount is greater than the unrefunded amount.')
        // In proportion to the part refunded, as Stripe reverses and refunds them.
        const share = (whole: number) => Math.round((amountPence * whole) / refunded.amount_captured_pence)
        let transferReversed = 0
        if (reverseTransfer && refunded.transfer_id) {
          const transfer = await q().selectFrom('offline_transfers').selectAll().where('id', '=', refunded.transfer_id).executeTakeFirstOrThrow()
          transferReversed = Math.min(share(transfer.amount_pence), transfer.amount_pence - transfer.reversed_pence)
          await reverse(q(), transfer.id, transferReversed)
        }
        let feeRefunded = 0
        if (refundApplicationFee && refunded.application_fee_pence) {
          feeRefunded = Math.min(share(refunded.application_fee_pence), refunded.application_fee_pence - refunded.application_fee_refunded_pence)
          await q()
            .updateTable('offline_payment_intents')
            .set((eb) => ({ application_fee_refunded_pence: eb('application_fee_refunded_pence', '+', feeRefunded) }))
            .where('id', '=', paymentIntentId)
            .execute()
        }
        const refundId = idOf('re')
        await q()
          .insertInto('offline_refunds')
          .values({ id: refundId, payment_intent_id: paymentIntentId, amount_pence: amountPence, transfer_reversed_pence: transferReversed, application_fee_refunded_pence: feeRefunded })
          .execute()
        return { refundId, amountPence }
      })
    },
    async createSetupIntent({ customerId, paymentMethodId, returnUrl, idempotencyKey }) {
      const answer = await once<{ rejected: string } | { setupIntentId: string }>(`setup_intent:${idempotencyKey}`, async () => {
        const id = idOf('seti')
        let methodId: string | null = null
        let status: SetupIntent['status'] = 'requires_payment_method'
        if (paymentMethodId !== null) {
          const saved = await attach(customerId, paymentMethodId)
          if (saved.isErr()) return { rejected: saved.error.reason }
          methodId = saved.value.paymentMethodId
          status = ACTION_REQUIRED.has(await testCardOf(methodId)) ? 'requires_action' : 'succeeded'
        }
        await q()
          .insertInto('offline_setup_intents')
          .values({ id, customer_id: customerId, payment_method_id: methodId, status, client_secret: secretOf(id), redirect_url: status === 'requires_action' ? withQuery(returnUrl, 'setup_intent', id) : null })
          .execute()
        return { setupIntentId: id }
      })
      if ('rejected' in answer) return err(cardRejected(answer.rejected))
      return ok(presentSetupIntent(await findSetup(answer.setupIntentId)))
    },
    async retrieveSetupIntent(setupIntentId) {
      return presentSetupIntent(await findSetup(setupIntentId))
    },
    async createTransfer({ accountId, amountPence, sourceChargeId, transferGroup, idempotencyKey }) {
      const { transferId } = await once(`transfer:${idempotencyKey}`, async () => {
        const account = await q().selectFrom('offline_accounts').selectAll().where('id', '=', accountId).executeTakeFirst()
        if (!account) throw new Error(`No such destination: '${accountId}'`)
        if (!account.payouts_enabled) throw new Error('Your destination account needs to have at least one of the following capabilities enabled: transfers.')
        if (sourceChargeId !== null) {
          const charge = await q().selectFrom('offline_payment_intents').select(['amount_received_pence']).where('latest_charge_id', '=', sourceChargeId).executeTakeFirst()
          if (!charge) throw new Error(`No such charge: '${sourceChargeId}'`)
          if (amountPence > charge.amount_received_pence) throw new Error('The transfer amount exceeds what the source transaction has left.')
        }
        const id = idOf('tr')
        await q().insertInto('offline_transfers').values({ id, account_id: accountId, amount_pence: amountPence, source_charge_id: sourceChargeId, transfer_group: transferGroup }).execute()
        return { transferId: id }
      })
      return presentTransfer(await q().selectFrom('offline_transfers').selectAll().where('id', '=', transferId).executeTakeFirstOrThrow())
    },
    async reverseTransfer(transferId, { amountPence, idempotencyKey }) {
      return once(`transfer_reversal:${idempotencyKey}`, async () => {
        await reverse(q(), transferId, amountPence)
        return { reversalId: idOf('trr'), amountPence }
      })
    },
  }
}

async function reverse(db: Kysely<Database>, transferId: string, amountPence: number): Promise<void> {
  const reversed = await db
    .updateTable('offline_transfers')
    .set((eb) => ({ reversed_pence: eb('reversed_pence', '+', amountPence) }))
    .where('id', '=', transferId)
    .where((eb) => eb(eb('reversed_pence', '+', amountPence), '<=', eb.ref('amount_pence')))
    .returning('id')
    .executeTakeFirst()
  if (!reversed) throw new Error(`The reversal amount exceeds what is left of transfer '${transferId}'.`)
}

const cardOf = (row: { id: string; brand: string; last4: string; exp_month: number; exp_year: number }): CardDetails => ({
  paymentMethodId: row.id,
  brand: row.brand,
  last4: row.last4,
  expMonth: row.exp_month,
  expYear: row.exp_year,
})

const presentIntent = (row: Selectable<OfflinePaymentIntentsTable>): PaymentIntent => ({
  id: row.id,
  status: row.status,
  amountPence: row.amount_pence,
  amountCapturablePence: row.amount_capturable_pence,
  amountReceivedPence: row.amount_received_pence,
  clientSecret: row.client_secret,
  redirectUrl: row.redirect_url,
  latestChargeId: row.latest_charge_id,
  transferGroup: row.transfer_group,
})

const presentSetupIntent = (row: Selectable<OfflineSetupIntentsTable>): SetupIntent => ({
  id: row.id,
  status: row.status,
  customerId: row.customer_id,
  paymentMethodId: row.payment_method_id,
  clientSecret: row.client_secret,
  redirectUrl: row.redirect_url,
})

const presentTransfer = (row: Selectable<OfflineTransfersTable>): Transfer => ({
  id: row.id,
  accountId: row.account_id,
  amountPence: row.amount_pence,
  reversedPence: row.reversed_pence,
  sourceChargeId: row.source_charge_id,
  transferGroup: row.transfer_group,
})
