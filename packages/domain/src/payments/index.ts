export { addBankAccount } from './add-bank-account'
export { addCard, CARD_DEFAULT_SYNC_TOPIC } from './add-card'
export { type BankAccount, formatSortCode, type NewBankAccount } from './bank-account'
export { deleteBankAccount } from './delete-bank-account'
export { CARD_DETACH_SYNC_TOPIC, deleteCard } from './delete-card'
export { ensureCustomer } from './ensure-customer'
export { linkBankAccount } from './link-bank-account'
export { listBankAccounts } from './list-bank-accounts'
export { listCards } from './list-cards'
export {
  type BankAccountDetails,
  bankAccountRejected,
  type BankAccountRejected,
  type BillingPortalFlow,
  type CardDetails,
  cardRejected,
  type CardRejected,
  type ChargeDestination,
  type ConnectedAccount,
  type CreatePaymentIntentInput,
  type CustomerDetails,
  paymentFailed,
  type PaymentFailed,
  type PaymentIntent,
  type PaymentIntentStatus,
  type PaymentProcessor,
  type SetupIntent,
  type SetupIntentStatus,
  type Transfer,
} from './payment-processor'
export type {
  BankAccountRepository,
  CardRepository,
  CustomerOwner,
  PaymentCustomerRepository,
  PaymentsDeps,
  PaymentsRepos,
  PayoutAccountRepository,
  PayoutAccountState,
} from './ports'
export type { SavedCard } from './saved-card'
export { setDefaultCard } from './set-default-card'
export { updateBankAccount } from './update-bank-account'
export { validateCard } from './validate-card'
