import { ResultAsync } from 'neverthrow'
import type { Actor, Forbidden } from '../shared'
import { requireBankAccountHolder, type BankAccount } from './bank-account'
import type { PaymentsDeps } from './ports'

export function listBankAccounts(deps: Pick<PaymentsDeps, 'uow'>, actor: Actor): ResultAsync<BankAccount[], Forbidden> {
  return requireBankAccountHolder(actor).asyncAndThen((tutor) => ResultAsync.fromSafePromise(deps.uow.repos.bankAccounts.listLive(tutor.id)))
}
