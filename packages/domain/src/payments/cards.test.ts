import { describe, expect, it } from 'vitest'
import { TEST_CARDS, paymentsWorld } from '@tutoring/testkit'
import { addCard } from './add-card'
import { deleteCard } from './delete-card'
import { listCards } from './list-cards'
import { setDefaultCard } from './set-default-card'
import { validateCard } from './validate-card'

const NOW = '2026-06-01T08:00:00Z'
const pm = (name: string) => `pm_card_${name}`

describe("a user's cards", () => {
  it('attaches a new card to the processor customer made on first need, as the default', async () => {
    const world = paymentsWorld(NOW)
    const me = world.addStudent()
    const card = (await addCard(world.deps, me, { paymentMethod: TEST_CARDS.visa }))._unsafeUnwrap()
    expect(card).toMatchObject({ userId: me.id, paymentMethodId: TEST_CARDS.visa, isDefault: true, last4: '4242' })
    expect(world.state.customers).toEqual([{ userId: me.id, customerId: world.processor.state.customers[0] }])
    expect(world.processor.state.attached).toEqual([{ customerId: world.processor.state.customers[0], paymentMethodId: TEST_CARDS.visa }])
  })

  it('answers the same payment method saved again as the same card, and a refused one as a 422 on payment_method', async () => {
    const world = paymentsWorld(NOW)
    const me = world.addStudent()
    const first = (await addCard(world.deps, me, { paymentMethod: TEST_CARDS.visa }))._unsafeUnwrap()
    const again = (await addCard(world.deps, me, { paymentMethod: TEST_CARDS.visa }))._unsafeUnwrap()
    expect(again.id).toBe(first.id)
    expect(world.processor.state.customers).toHaveLength(1)
    expect((await addCard(world.deps, me, { paymentMethod: TEST_CARDS.expired }))._unsafeUnwrapErr()).toEqual({
      type: 'ValidationFailed',
      errors: { payment_method: ['Your card has expired.'] },
    })
  })

  it('makes another card the default here and, through the outbox, at the processor', async () => {
    const world = paymentsWorld(NOW)
    const me = world.addStudent()
    const first = (await addCard(world.deps, me, { paymentMethod: pm('first') }))._unsafeUnwrap()
    ;(await addCard(world.deps, me, { paymentMethod: pm('second') }))._unsafeUnwrap()
    world.state.outbox.length = 0
    expect((await setDefaultCard(world.deps, me, first.id))._unsafeUnwrap().isDefault).toBe(true)
    expect((await listCards(world.deps, me))._unsafeUnwrap().map((c) => [c.paymentMethodId, c.isDefault])).toEqual([
      [pm('first'), true],
      [pm('second'), false],
    ])
    expect(world.state.outbox).toEqual([{ kind: 'processor_sync', topic: 'card.make_default', data: { userId: me.id } }])
  })

  it('passes the default to the newest remaining card when the default is deleted, and detaches the deleted one', async () => {
    const world = paymentsWorld(NOW)
    const me = world.addStudent()
    ;(await addCard(world.deps, me, { paymentMethod: pm('oldest') }))._unsafeUnwrap()
    world.clock.advance(60_000)
    ;(await addCard(world.deps, me, { paymentMethod: pm('newer') }))._unsafeUnwrap()
    world.clock.advance(60_000)
    const latest = (await addCard(world.deps, me, { paymentMethod: pm('latest') }))._unsafeUnwrap()
    world.state.outbox.length = 0
    ;(await deleteCard(world.deps, me, latest.id))._unsafeUnwrap()
    expect((await listCards(world.deps, me))._unsafeUnwrap().map((c) => [c.paymentMethodId, c.isDefault])).toEqual([
      [pm('newer'), true],
      [pm('oldest'), false],
    ])
    expect(world.state.outbox.map((m) => m.kind === 'processor_sync' && m.topic)).toEqual(['card.detach', 'card.make_default'])
  })

  it("treats another user's card, staff included, as one that does not exist", async () => {
    const world = paymentsWorld(NOW)
    const owner = world.addStudent()
    const card = (await addCard(world.deps, owner, { paymentMethod: TEST_CARDS.visa }))._unsafeUnwrap()
    for (const other of [world.addStudent(), world.addStaff()]) {
      expect((await setDefaultCard(world.deps, other, card.id))._unsafeUnwrapErr()).toEqual({ type: 'NotFound', resource: 'card' })
      expect((await deleteCard(world.deps, other, card.id))._unsafeUnwrapErr()).toEqual({ type: 'NotFound', resource: 'card' })
      expect((await listCards(world.deps, other))._unsafeUnwrap()).toEqual([])
    }
  })

  it('checks a payment method with the processor without saving anything', async () => {
    const world = paymentsWorld(NOW)
    expect((await validateCard(world.deps, { paymentMethod: TEST_CARDS.visa }))._unsafeUnwrap()).toMatchObject({ brand: 'visa', last4: '4242' })
    expect((await validateCard(world.deps, { paymentMethod: 'nonsense' }))._unsafeUnwrapErr()).toEqual({
      type: 'ValidationFailed',
      errors: { payment_method: ['No such payment method.'] },
    })
    expect(world.state.cards).toEqual([])
  })
})
