import { describe, expect, it } from 'vitest'
import { paymentsWorld } from '@tutoring/testkit'
import { addBankAccount } from './add-bank-account'
import { deleteBankAccount } from './delete-bank-account'
import { linkBankAccount } from './link-bank-account'
import { listBankAccounts } from './list-bank-accounts'
import { updateBankAccount } from './update-bank-account'

const NOW = '2026-06-01T08:00:00Z'
const details = (accountNumber = '12345678') => ({ accountHolderName: '  Ada Lovelace ', sortCode: '12-34-56', accountNumber })

describe("a tutor's payout bank accounts", () => {
  it('keeps only the last four digits and the processor token; the first account is the default', async () => {
    const world = paymentsWorld(NOW)
    const tutor = world.addTutor()
    const first = (await addBankAccount(world.deps, tutor, details()))._unsafeUnwrap()
    expect(first).toMatchObject({ accountHolderName: 'Ada Lovelace', sortCode: '123456', last4: '5678', processorToken: expect.stringMatching(/^btok_/), isDefault: true })
    expect(JSON.stringify(world.state)).not.toContain('12345678')
    const second = (await addBankAccount(world.deps, tutor, details('87654321')))._unsafeUnwrap()
    expect(second.isDefault).toBe(false)
  })

  it('is for tutors only, and names the field the processor refused', async () => {
    const world = paymentsWorld(NOW)
    expect((await addBankAccount(world.deps, world.addStudent(), details()))._unsafeUnwrapErr().type).toBe('Forbidden')
    expect((await listBankAccounts(world.deps, world.addStaff()))._unsafeUnwrapErr().type).toBe('Forbidden')
    expect((await addBankAccount(world.deps, world.addTutor(), details('123')))._unsafeUnwrapErr()).toEqual({
      type: 'ValidationFailed',
      errors: { account_number: ['Invalid account number.'] },
    })
  })

  it('renames and changes the default of its own accounts; a deleted default passes to the newest remaining one', async () => {
    const world = paymentsWorld(NOW)
    const tutor = world.addTutor()
    const first = (await addBankAccount(world.deps, tutor, details()))._unsafeUnwrap()
    world.clock.advance(60_000)
    const second = (await addBankAccount(world.deps, tutor, details('87654321')))._unsafeUnwrap()
    expect((await updateBankAccount(world.deps, tutor, { id: second.id, accountHolderName: ' A. Lovelace ', makeDefault: true }))._unsafeUnwrap()).toMatchObject({
      accountHolderName: 'A. Lovelace',
      isDefault: true,
    })
    ;(await deleteBankAccount(world.deps, tutor, second.id))._unsafeUnwrap()
    expect((await listBankAccounts(world.deps, tutor))._unsafeUnwrap().map((a) => [a.id, a.isDefault])).toEqual([[first.id, true]])
    expect((await updateBankAccount(world.deps, world.addTutor(), { id: first.id, makeDefault: true }))._unsafeUnwrapErr().type).toBe('NotFound')
  })

  it('lets staff link accounts to one connected account per tutor, once', async () => {
    const world = paymentsWorld(NOW)
    const tutor = world.addTutor()
    const staff = world.addStaff()
    const first = (await addBankAccount(world.deps, tutor, details()))._unsafeUnwrap()
    const second = (await addBankAccount(world.deps, tutor, details('87654321')))._unsafeUnwrap()
    expect((await linkBankAccount(world.deps, tutor, first.id))._unsafeUnwrapErr().type).toBe('Forbidden')
    const linked = (await linkBankAccount(world.deps, staff, first.id))._unsafeUnwrap()
    expect(linked).toMatchObject({ processorAccountId: expect.stringMatching(/^acct_/), linkedAt: new Date(NOW) })
    expect((await linkBankAccount(world.deps, staff, first.id))._unsafeUnwrap()).toEqual(linked)
    const other = (await linkBankAccount(world.deps, staff, second.id))._unsafeUnwrap()
    expect(other.processorAccountId).toBe(linked.processorAccountId)
    expect(world.processor.state.calls.filter((c) => c.call === 'createExternalAccount')).toHaveLength(2)
  })
})
