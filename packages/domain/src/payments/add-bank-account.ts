import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { validationFailed, type Forbidden, type ValidationFailed, type Actor } from '../shared'
import { normaliseSortCode, requireBankAccountHolder, type BankAccount } from './bank-account'
import type { BankAccountDetails } from './payment-processor'
import type { PaymentsDeps } from './ports'

/**
 * Hands the details to the processor for a single-use token (the full number is never
 * stored) and saves the account with its last four digits. The tutor's first live account
 * is the default. Linking it for payouts is staff's step (`linkBankAccount`).
 */
export function addBankAccount(deps: PaymentsDeps, actor: Actor, details: BankAccountDetails): ResultAsync<BankAccount, Forbidden | ValidationFailed> {
  return requireBankAccountHolder(actor).asyncAndThen((tutor) => new ResultAsync(add(deps, tutor, details)))
}

async function add(deps: PaymentsDeps, tutor: Actor, details: BankAccountDetails): Promise<Result<BankAccount, ValidationFailed>> {
  const clean = { ...details, accountHolderName: details.accountHolderName.trim(), sortCode: normaliseSortCode(details.sortCode) }
  const tokenised = await deps.processor.tokenizeBankAccount(clean)
  if (tokenised.isErr()) {
    const field = /sort|routing/i.test(tokenised.error.reason) ? 'sort_code' : 'account_number'
    return err(validationFailed({ [field]: [tokenised.error.reason] }))
  }
  return deps.uow.run(async ({ bankAccounts }) => {
    await bankAccounts.lockUser(tutor.id)
    const first = (await bankAccounts.listLive(tutor.id)).length === 0
    return ok(
      await bankAccounts.insert({
        userId: tutor.id,
        accountHolderName: clean.accountHolderName,
        sortCode: clean.sortCode,
        last4: clean.accountNumber.slice(-4),
        processorToken: tokenised.value.token,
        isDefault: first,
      }),
    )
  })
}
