import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { notFound, type NotFound, type Actor } from '../shared'
import type { PaymentsDeps } from './ports'

/**
 * Soft delete. A deleted default passes the default to the most recently added remaining
 * account. The processor's copy of a linked account stays on the connected account for
 * staff to remove there, since payouts in flight may still use it.
 */
export function deleteBankAccount(deps: Pick<PaymentsDeps, 'uow' | 'clock'>, actor: Actor, id: number): ResultAsync<void, NotFound> {
  const now = deps.clock.now()
  return new ResultAsync(
    deps.uow.run(async ({ bankAccounts }): Promise<Result<void, NotFound>> => {
      await bankAccounts.lockUser(actor.id)
      const account = await bankAccounts.findLive(id)
      if (!account || account.userId !== actor.id) return err(notFound('bank account'))
      await bankAccounts.softDelete(account.id, now)
      if (account.isDefault) {
        const next = (await bankAccounts.listLive(actor.id)).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)[0]
        if (next) await bankAccounts.makeDefault(actor.id, next.id, now)
      }
      return ok(undefined)
    }),
  )
}
