import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatePaymentIntentInput, PaymentProcessor } from '@tutoring/domain/payments'
import { startStripeStandIn, type StripeStandIn } from '../testing/stripe-stand-in'
import { stripeProcessor } from './stripe-processor'
import { verifyStripeSignature } from './stripe-signature'

let api: StripeStandIn
let p: PaymentProcessor
beforeAll(async () => {
  api = await startStripeStandIn()
  p = stripeProcessor({ secretKey: api.secretKey, apiBase: api.url, maxNetworkRetries: 0, timeoutMs: 2_000 })
})
afterAll(() => api.close())

let seq = 0
const key = (name: string) => `${name}-${++seq}`
const last = () => api.requests.at(-1)!
const object = (id: string | null) => api.objects.get(String(id))!

async function customer() {
  return (await p.createCustomer({ email: `c${++seq}@example.com`, name: 'C' })).customerId
}
async function tutorAccount() {
  const { token } = (await p.tokenizeBankAccount({ accountHolderName: 'Tutor', sortCode: '108800', accountNumber: '00012345' }))._unsafeUnwrap()
  return (await p.createExternalAccount({ accountId: null, email: 'tutor@example.com', token, idempotencyKey: key('link') })).accountId
}
const intentInput = (customerId: string, over: Partial<CreatePaymentIntentInput> = {}): CreatePaymentIntentInput => ({
  customerId,
  paymentMethodId: 'pm_card_visa',
  amountPence: 3300,
  captureMethod: 'manual',
  offSession: false,
  returnUrl: 'https://app.test/return',
  description: 'Lesson',
  metadata: { booking_id: '9' },
  idempotencyKey: key('pi'),
  ...over,
})

describe('Stripe Connect through the SDK against the stand-in', () => {
  it("sends a destination charge's account, fee and transfer group; capture moves the share less the fee to the tutor", async () => {
    const accountId = await tutorAccount()
    const intent = (await p.createPaymentIntent(intentInput(await customer(), { destination: { accountId, applicationFeePence: 300 }, transferGroup: 'booking-9' })))._unsafeUnwrap()
    expect(last().form).toMatchObject({ 'transfer_data[destination]': accountId, application_fee_amount: '300', transfer_group: 'booking-9', capture_method: 'manual' })
    expect(intent).toMatchObject({ status: 'requires_capture', transferGroup: 'booking-9', latestChargeId: expect.stringMatching(/^ch_/) })
    expect(object(intent.latestChargeId).transfer).toBeNull()

    await p.capturePaymentIntent(intent.id, { amountPence: 2200, idempotencyKey: key('capture') })
    const charge = object(intent.latestChargeId)
    expect(object(charge.transfer as string)).toMatchObject({ object: 'transfer', destination: accountId, amount: 1900, source_transaction: charge.id, transfer_group: 'booking-9' })
    expect(object(charge.application_fee as string)).toMatchObject({ object: 'application_fee', amount: 300, account: accountId })

    // A refund of half what was taken reverses half the tutor's share and half the fee.
    await p.refundPayment(intent.id, { amountPence: 1100, idempotencyKey: key('refund'), reverseTransfer: true, refundApplicationFee: true })
    expect(last()).toMatchObject({ path: '/v1/refunds', form: { payment_intent: intent.id, amount: '1100', reverse_transfer: 'true', refund_application_fee: 'true' } })
    expect(object(charge.transfer as string)).toMatchObject({ amount_reversed: 950 })
    expect(object(charge.application_fee as string)).toMatchObject({ amount_refunded: 150 })
  })

  it('throws, rather than blaming the card, when the destination account does not exist', async () => {
    const input = intentInput(await customer(), { destination: { accountId: 'acct_missing', applicationFeePence: 300 } })
    await expect(p.createPaymentIntent(input)).rejects.toThrow(/No such account: 'acct_missing'/)
  })

  it("reports a connected account's payout status, and pays a separate transfer only once payouts are enabled", async () => {
    const accountId = await tutorAccount()
    expect(await p.retrieveConnectedAccount(accountId)).toEqual({
      id: accountId,
      payoutsEnabled: false,
      chargesEnabled: false,
      detailsSubmitted: false,
      requirementsDue: ['individual.verification.document', 'tos_acceptance.date'],
    })
    const paid = (await p.createPaymentIntent(intentInput(await customer(), { captureMethod: 'automatic', transferGroup: 'booking-10' })))._unsafeUnwrap()
    const input = { accountId, amountPence: 3000, sourceChargeId: paid.latestChargeId, transferGroup: 'booking-10', metadata: { booking_id: '10' }, idempotencyKey: key('tr') }
    await expect(p.createTransfer(input)).rejects.toThrow(/capabilities enabled: transfers/)

    api.enablePayouts(accountId)
    expect((await p.retrieveConnectedAccount(accountId)).payoutsEnabled).toBe(true)
    const transfer = await p.createTransfer({ ...input, idempotencyKey: key('tr') })
    expect(transfer).toEqual({ id: expect.stringMatching(/^tr_/), accountId, amountPence: 3000, reversedPence: 0, sourceChargeId: paid.latestChargeId, transferGroup: 'booking-10' })
    expect(last().form).toMatchObject({ destination: accountId, amount: '3000', currency: 'gbp', source_transaction: paid.latestChargeId, transfer_group: 'booking-10', 'metadata[booking_id]': '10' })

    expect(await p.reverseTransfer(transfer.id, { amountPence: 1000, idempotencyKey: key('trr') })).toEqual({ reversalId: expect.stringMatching(/^trr_/), amountPence: 1000 })
    expect(last()).toMatchObject({ path: `/v1/transfers/${transfer.id}/reversals`, form: { amount: '1000' } })
    await expect(p.reverseTransfer(transfer.id, { amountPence: 2001, idempotencyKey: key('trr') })).rejects.toThrow(/exceeds/)
  })

  it('creates SetupIntents for off-session use, confirmed now with a card or later by the client', async () => {
    const customerId = await customer()
    const base = { customerId, returnUrl: 'https://app.test/return', metadata: { booking_id: '11' } }
    const visa = (await p.createSetupIntent({ ...base, paymentMethodId: 'pm_card_visa', idempotencyKey: key('seti') }))._unsafeUnwrap()
    expect(last().form).toMatchObject({ customer: customerId, usage: 'off_session', payment_method: 'pm_card_visa', confirm: 'true', return_url: 'https://app.test/return' })
    expect(visa).toMatchObject({ status: 'succeeded', customerId, paymentMethodId: expect.stringMatching(/^pm_/), clientSecret: expect.stringContaining('_secret_') })
    const threeDs = (await p.createSetupIntent({ ...base, paymentMethodId: 'pm_card_threeDSecure2Required', idempotencyKey: key('seti') }))._unsafeUnwrap()
    expect(threeDs).toMatchObject({ status: 'requires_action', redirectUrl: expect.stringMatching(/^https:\/\/hooks\.stripe\.test\/3ds\/seti_/) })
    api.authenticate(threeDs.id)
    expect((await p.retrieveSetupIntent(threeDs.id)).status).toBe('succeeded')
    expect((await p.createSetupIntent({ ...base, paymentMethodId: 'pm_card_chargeDeclined', idempotencyKey: key('seti') }))._unsafeUnwrapErr()).toEqual({ type: 'CardRejected', reason: 'Your card was declined.' })
    const later = (await p.createSetupIntent({ ...base, paymentMethodId: null, idempotencyKey: key('seti') }))._unsafeUnwrap()
    expect(later).toMatchObject({ status: 'requires_payment_method', paymentMethodId: null })
    expect(last().form.confirm).toBeUndefined()
  })

  it('declines an off-session payment that needs the customer as authentication_required, with the intent they can confirm', async () => {
    const customerId = await customer()
    const saved = (await p.attachCard(customerId, 'pm_card_authenticationRequired'))._unsafeUnwrap()
    const refused = (await p.createPaymentIntent(intentInput(customerId, { paymentMethodId: saved.paymentMethodId, offSession: true })))._unsafeUnwrapErr()
    expect(refused).toMatchObject({ type: 'PaymentFailed', code: 'authentication_required', paymentIntentId: expect.stringMatching(/^pi_/) })
    expect((await p.retrievePaymentIntent(refused.paymentIntentId!)).status).toBe('requires_payment_method')
    api.authenticate(refused.paymentIntentId!)
    expect((await p.retrievePaymentIntent(refused.paymentIntentId!)).status).toBe('requires_capture')
  })
})

describe('webhook events from the stand-in', () => {
  it('sends each kind of event signed as Stripe signs it, with the object and, for Connect, the account', async () => {
    const secret = 'whsec_connect'
    const received: Array<{ signature: string | undefined; body: string }> = []
    const hook = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
      req.on('end', () => {
        received.push({ signature: req.headers['stripe-signature'] as string | undefined, body })
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}')
      })
    })
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve))
    const target = { url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`, secret }
    try {
      const accountId = await tutorAccount()
      const paid = (await p.createPaymentIntent(intentInput(await customer(), { captureMethod: 'automatic' })))._unsafeUnwrap()
      const dispute = api.dispute(paid.latestChargeId!)
      const setup = (await p.createSetupIntent({ customerId: await customer(), paymentMethodId: 'pm_card_visa', returnUrl: 'https://app.test/r', metadata: {}, idempotencyKey: key('seti') }))._unsafeUnwrap()
      const events: Array<[string, Record<string, unknown>, string?]> = [
        ['charge.succeeded', object(paid.latestChargeId)],
        ['charge.dispute.created', dispute],
        ['charge.dispute.closed', api.closeDispute(String(dispute.id), 'lost')],
        ['account.updated', api.enablePayouts(accountId), accountId],
        ['payout.failed', api.payout(accountId, 'failed'), accountId],
        ['setup_intent.succeeded', object(setup.id)],
      ]
      for (const [type, obj, account] of events) {
        const sent = await api.sendEvent(target, type, obj, account ? { account } : {})
        expect(sent.status).toBe(200)
      }
      expect(received).toHaveLength(events.length)
      for (const [i, got] of received.entries()) {
        expect(verifyStripeSignature(got.body, got.signature, secret, Date.now())).toEqual({ valid: true })
        const event = JSON.parse(got.body) as { id: string; type: string; data: { object: { id: string } }; account?: string }
        expect(event).toMatchObject({ id: expect.stringMatching(/^evt_/), type: events[i]![0], data: { object: { id: events[i]![1].id } } })
        expect(event.account).toBe(events[i]![2])
      }
      expect(JSON.parse(received[2]!.body).data.object).toMatchObject({ status: 'lost', charge: paid.latestChargeId })
      expect(JSON.parse(received[4]!.body).data.object).toMatchObject({ object: 'payout', status: 'failed', failure_code: 'account_closed' })
      // The same event again keeps its id, so a receiver can tell a redelivery.
      const again = await api.sendEvent(target, 'charge.succeeded', object(paid.latestChargeId), { eventId: JSON.parse(received[0]!.body).id })
      expect(again.event.id).toBe(JSON.parse(received[0]!.body).id)
    } finally {
      hook.closeAllConnections()
      await new Promise((resolve) => hook.close(resolve))
    }
  })
})
