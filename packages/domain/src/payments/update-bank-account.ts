import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { notFound, type NotFound, type Actor } from '../shared'
import type { BankAccount } from './bank-account'
import type { PaymentsDeps } from './ports'

/**
 * The holder's name and being the default are all that change; new numbers are a new
 * account. Someone else's account (staff included) does not exist (404).
 */
export function updateBankAccount(
  deps: Pick<PaymentsDeps, 'uow' | 'clock'>,
  actor: Actor,
  input: { id: number; accountHolderName?: string; makeDefault?: boolean },
): ResultAsync<BankAccount, NotFound> {
  const now = deps.clock.now()
  return new ResultAsync(
    deps.uow.run(async ({ bankAccounts }): Promise<Result<BankAccount, NotFound>> => {
      await bankAccounts.lockUser(actor.id)
      const found = await bankAccounts.findLive(input.id)
      if (!found || found.userId !== actor.id) return err(notFound('bank account'))
      let account = found
      if (input.accountHolderName !== undefined) account = await bankAccounts.update(account.id, { accountHolderName: input.accountHolderName.trim() }, now)
      if (input.makeDefault) account = await bankAccounts.makeDefault(actor.id, account.id, now)
      return ok(account)
    }),
  )
}
