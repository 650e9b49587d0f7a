import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { forbidden, isInternal, notFound, type Forbidden, type NotFound, type Actor } from '../shared'
import type { BankAccount } from './bank-account'
import type { PaymentsDeps } from './ports'

/**
 * Staff link a tutor's bank account to the tutor's connected account at the processor
 * (made with the first link; later links reuse it). The processor call carries a key
 * derived from the account, so a retry, or two staff at once, link it once. An account
 * already linked is answered as it is. What the processor then says of the connected account
 * (can it be paid out yet?) is stored: charges name it as their destination only once it can.
 */
export function linkBankAccount(deps: PaymentsDeps, actor: Actor, bankAccountId: number): ResultAsync<BankAccount, Forbidden | NotFound> {
  if (!isInternal(actor.roleId)) return new ResultAsync(Promise.resolve(err(forbidden('Only internal staff link bank accounts.'))))
  return new ResultAsync(link(deps, bankAccountId))
}

async function link(deps: PaymentsDeps, bankAccountId: number): Promise<Result<BankAccount, NotFound>> {
  const { bankAccounts, users } = deps.uow.repos
  const account = await bankAccounts.findLive(bankAccountId)
  if (!account) return err(notFound('bank account'))
  if (account.linkedAt || !account.processorToken) return ok(account)
  const tutor = await users.findById(account.userId)
  if (!tutor) return err(notFound('bank account'))
  const linked = await deps.processor.createExternalAccount({
    accountId: await bankAccounts.connectedAccountOf(account.userId),
    email: tutor.email,
    token: account.processorToken,
    idempotencyKey: `bank-account-link:${account.id}`,
  })
  const connected = await deps.processor.retrieveConnectedAccount(linked.accountId)
  const now = deps.clock.now()
  return deps.uow.run(async (repos): Promise<Result<BankAccount, NotFound>> => {
    const current = await repos.bankAccounts.lockLive(bankAccountId)
    if (!current) return err(notFound('bank account'))
    if (current.linkedAt) return ok(current)
    await repos.payoutAccounts.record({ accountId: linked.accountId, userId: current.userId, payoutsEnabled: connected.payoutsEnabled, at: null })
    return ok(
      await repos.bankAccounts.markLinked(current.id, {
        processorAccountId: linked.accountId,
        processorBankAccountId: linked.bankAccountId,
        at: now,
      }),
    )
  })
}
