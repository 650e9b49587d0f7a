import { ok } from 'neverthrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatePaymentIntentInput } from '@tutoring/domain/payments'
import type { DatabaseHandle } from '../db/connect'
import { createUnitOfWork } from '../db/unit-of-work'
import { createTestDatabase, testDatabaseKinds } from '../testing'
import { offlineProcessor } from './offline-processor'

describe.each(testDatabaseKinds())('offline processor on %s', (kind) => {
  let handle: DatabaseHandle
  beforeAll(async () => {
    handle = await createTestDatabase(kind)
  })
  afterAll(() => handle.close())

  let seq = 0
  const key = (name: string) => `${name}-${++seq}`
  const intentInput = (over: Partial<CreatePaymentIntentInput> = {}): CreatePaymentIntentInput => ({
    customerId: 'cus_offline_test',
    paymentMethodId: 'pm_card_visa',
    amountPence: 2750,
    captureMethod: 'manual',
    offSession: false,
    returnUrl: 'http://api.test/return',
    description: 'lesson',
    metadata: {},
    idempotencyKey: key('pi'),
    ...over,
  })
  /** A tutor's account as the bank-account link makes it. */
  const tutorAccount = async (processor = offlineProcessor(handle)) =>
    (await processor.createExternalAccount({ accountId: null, email: 'tutor@example.com', token: 'btok_x', idempotencyKey: key('acct') })).accountId

  describe('payment intents', () => {
    it('authorises with the payment methods it made itself when attaching, whatever characters their ids hold', async () => {
      const processor = offlineProcessor(handle)
      for (let i = 0; i < 50; i++) {
        const paymentMethodId = (await processor.attachCard('cus_offline_test', 'pm_card_visa'))._unsafeUnwrap().paymentMethodId
        expect((await processor.createPaymentIntent(intentInput({ paymentMethodId, offSession: true }))).isOk(), paymentMethodId).toBe(true)
      }
    })

    it('answers a repeated idempotency key with the first answer, as a usable Result', async () => {
      const processor = offlineProcessor(handle)
      const input = intentInput({ paymentMethodId: 'pm_card_chargeDeclined', idempotencyKey: key('same') })
      const first = await processor.createPaymentIntent(input)
      const again = await processor.createPaymentIntent(input)
      expect(first.isErr() && again.isErr()).toBe(true)
      expect(again._unsafeUnwrapErr()).toEqual({ type: 'PaymentFailed', reason: 'Your card was declined.', code: 'card_declined' })
      const visa = intentInput()
      expect((await processor.createPaymentIntent(visa))._unsafeUnwrap().id).toBe((await processor.createPaymentIntent(visa))._unsafeUnwrap().id)
    })

    it('keeps intents in the database: another instance (a restart, a second server) captures what the first authorised', async () => {
      const before = offlineProcessor(handle)
      const intent = (await before.createPaymentIntent(intentInput()))._unsafeUnwrap()
      expect(intent).toMatchObject({ status: 'requires_capture', amountCapturablePence: 2750, latestChargeId: expect.stringMatching(/^ch_offline_/) })
      const after = offlineProcessor(handle)
      expect(await after.retrievePaymentIntent(intent.id)).toEqual(intent)
      const captured = await after.capturePaymentIntent(intent.id, { amountPence: 2000, idempotencyKey: key('capture') })
      expect(captured).toMatchObject({ status: 'succeeded', amountCapturablePence: 0, amountReceivedPence: 2000 })
      expect((await before.retrievePaymentIntent(intent.id)).status).toBe('succeeded')
    })

    it('lets only one of two instances capture an intent at the same instant', async () => {
      const intent = (await offlineProcessor(handle).createPaymentIntent(intentInput()))._unsafeUnwrap()
      const outcomes = await Promise.allSettled(
        [offlineProcessor(handle), offlineProcessor(handle)].map((p) => p.capturePaymentIntent(intent.id, { idempotencyKey: key('race') })),
      )
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1)
      expect((await offlineProcessor(handle).retrievePaymentIntent(intent.id)).amountReceivedPence).toBe(2750)
    })

    it('refuses to capture, cancel or refund out of order, as the processor does', async () => {
      const processor = offlineProcessor(handle)
      const intent = (await processor.createPaymentIntent(intentInput()))._unsafeUnwrap()
      await expect(processor.refundPayment(intent.id, { amountPence: 100, idempotencyKey: key('re') })).rejects.toThrow(/requires_capture and cannot be refunded/)
      await processor.cancelPaymentIntent(intent.id, { idempotencyKey: key('cancel') })
      await expect(processor.capturePaymentIntent(intent.id, { idempotencyKey: key('cap') })).rejects.toThrow(/status of canceled/)
      await expect(processor.retrievePaymentIntent('pi_offline_missing')).rejects.toThrow(/No such payment_intent/)
    })

    it('declines an off-session payment that needs the customer with authentication_required, naming the intent to confirm', async () => {
      const processor = offlineProcessor(handle)
      const saved = (await processor.attachCard('cus_offline_test', 'pm_card_authenticationRequired'))._unsafeUnwrap()
      const refused = (await processor.createPaymentIntent(intentInput({ paymentMethodId: saved.paymentMethodId, offSession: true })))._unsafeUnwrapErr()
      expect(refused).toMatchObject({ type: 'PaymentFailed', code: 'authentication_required', paymentIntentId: expect.stringMatching(/^pi_offline_/) })
      expect((await processor.retrievePaymentIntent(refused.paymentIntentId!)).status).toBe('requires_payment_method')
      // A card that was only set up for 3-D Secure once goes through off session.
      const threeDs = (await processor.attachCard('cus_offline_test', 'pm_card_threeDSecure2Required'))._unsafeUnwrap()
      expect((await processor.createPaymentIntent(intentInput({ paymentMethodId: threeDs.paymentMethodId, offSession: true })))._unsafeUnwrap().status).toBe('requires_capture')
    })

    it('works inside a unit of work on the embedded database, whose one session that transaction holds', async () => {
      const processor = offlineProcessor(handle)
      const uow = createUnitOfWork(handle.db, { outside: () => ({}), inside: () => ({}) })
      const inside = await Promise.race([
        uow.run(async () => ok((await processor.createPaymentIntent(intentInput()))._unsafeUnwrap())),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the processor waited for the transaction it runs in')), 5_000)),
      ])
      expect((await processor.retrievePaymentIntent(inside._unsafeUnwrap().id)).status).toBe('requires_capture')
    })
  })

  describe('Connect', () => {
    it("transfers a destination charge's capture less the application fee, and a refund reverses both in proportion", async () => {
      const processor = offlineProcessor(handle)
      const accountId = await tutorAccount(processor)
      const intent = (
        await processor.createPaymentIntent(intentInput({ amountPence: 3300, destination: { accountId, applicationFeePence: 300 }, transferGroup: 'booking-1' }))
      )._unsafeUnwrap()
      expect(intent.transferGroup).toBe('booking-1')
      expect(await handle.db.selectFrom('offline_transfers').selectAll().where('account_id', '=', accountId).execute()).toEqual([])
      await processor.capturePaymentIntent(intent.id, { idempotencyKey: key('capture') })
      const [transfer] = await handle.db.selectFrom('offline_transfers').selectAll().where('account_id', '=', accountId).execute()
      expect(transfer).toMatchObject({ amount_pence: 3000, reversed_pence: 0, source_charge_id: intent.latestChargeId, transfer_group: 'booking-1' })

      // Half the payment back: half the tutor's share and half the fee.
      await processor.refundPayment(intent.id, { amountPence: 1650, idempotencyKey: key('refund'), reverseTransfer: true, refundApplicationFee: true })
      const row = await handle.db.selectFrom('offline_payment_intents').selectAll().where('id', '=', intent.id).executeTakeFirstOrThrow()
      expect(row).toMatchObject({ amount_received_pence: 1650, application_fee_refunded_pence: 150 })
      expect((await handle.db.selectFrom('offline_transfers').select('reversed_pence').where('id', '=', transfer!.id).executeTakeFirstOrThrow()).reversed_pence).toBe(1500)
      // Without the flags the tutor keeps the share.
      await processor.refundPayment(intent.id, { amountPence: 650, idempotencyKey: key('refund') })
      expect((await handle.db.selectFrom('offline_transfers').select('reversed_pence').where('id', '=', transfer!.id).executeTakeFirstOrThrow()).reversed_pence).toBe(1500)
    })

    it('pays a later separate transfer from a charge, and reverses it up to its amount', async () => {
      const processor = offlineProcessor(handle)
      const accountId = await tutorAccount(processor)
      expect(await processor.retrieveConnectedAccount(accountId)).toEqual({ id: accountId, payoutsEnabled: true, chargesEnabled: true, detailsSubmitted: true, requirementsDue: [] })
      const intent = (await processor.createPaymentIntent(intentInput({ amountPence: 2200, captureMethod: 'automatic', transferGroup: 'booking-2' })))._unsafeUnwrap()
      const transferInput = { accountId, amountPence: 2000, sourceChargeId: intent.latestChargeId, transferGroup: 'booking-2', metadata: {}, idempotencyKey: key('tr') }
      const transfer = await processor.createTransfer(transferInput)
      expect(transfer).toEqual({ id: expect.stringMatching(/^tr_offline_/), accountId, amountPence: 2000, reversedPence: 0, sourceChargeId: intent.latestChargeId, transferGroup: 'booking-2' })
      expect((await processor.createTransfer(transferInput)).id).toBe(transfer.id)
      expect(await processor.reverseTransfer(transfer.id, { amountPence: 500, idempotencyKey: key('trr') })).toMatchObject({ amountPence: 500 })
      await expect(processor.reverseTransfer(transfer.id, { amountPence: 1501, idempotencyKey: key('trr') })).rejects.toThrow(/exceeds/)
      await expect(processor.createTransfer({ ...transferInput, amountPence: 2201, idempotencyKey: key('tr') })).rejects.toThrow(/exceeds/)
      await expect(processor.createTransfer({ ...transferInput, accountId: 'acct_offline_nobody', idempotencyKey: key('tr') })).rejects.toThrow(/No such destination/)
    })
  })

  describe('setup intents', () => {
    it('saves a card now for later off-session payments; 3-D Secure cards wait for the customer; declined cards are refused', async () => {
      const processor = offlineProcessor(handle)
      const input = { customerId: 'cus_offline_setup', returnUrl: 'http://api.test/return', metadata: {} }
      const visa = (await processor.createSetupIntent({ ...input, paymentMethodId: 'pm_card_visa', idempotencyKey: key('seti') }))._unsafeUnwrap()
      expect(visa).toMatchObject({ status: 'succeeded', customerId: 'cus_offline_setup', paymentMethodId: expect.stringMatching(/^pm_offline_/), clientSecret: expect.stringContaining('_secret_') })
      expect((await processor.checkCard(visa.paymentMethodId!))._unsafeUnwrap()).toMatchObject({ brand: 'visa', last4: '4242' })
      const threeDs = (await processor.createSetupIntent({ ...input, paymentMethodId: 'pm_card_threeDSecure2Required', idempotencyKey: key('seti') }))._unsafeUnwrap()
      expect(threeDs).toMatchObject({ status: 'requires_action', redirectUrl: `http://api.test/return?setup_intent=${threeDs.id}` })
      expect((await processor.createSetupIntent({ ...input, paymentMethodId: 'pm_card_chargeDeclined', idempotencyKey: key('seti') }))._unsafeUnwrapErr()).toEqual({ type: 'CardRejected', reason: 'Your card was declined.' })
      const empty = (await processor.createSetupIntent({ ...input, paymentMethodId: null, idempotencyKey: key('seti') }))._unsafeUnwrap()
      expect(empty).toMatchObject({ status: 'requires_payment_method', paymentMethodId: null })
      expect(await offlineProcessor(handle).retrieveSetupIntent(threeDs.id)).toEqual(threeDs)
    })
  })
})
