import type { PaymentProcessor } from './payment-processor'
import type { CustomerOwner, PaymentCustomerRepository } from './ports'

/**
 * The user's processor customer, made now when they have none. Two concurrent requests may
 * both make one; the first to claim the user's row wins and the other is deleted again.
 */
export async function ensureCustomer(
  deps: { processor: PaymentProcessor; customers: PaymentCustomerRepository },
  user: CustomerOwner,
): Promise<string> {
  const existing = await deps.customers.customerIdOf(user.id)
  if (existing) return existing
  const { customerId } = await deps.processor.createCustomer({ email: user.email, name: `${user.firstname} ${user.lastname}` })
  if (await deps.customers.claim(user.id, customerId)) return customerId
  await deps.processor.deleteCustomer(customerId)
  const winner = await deps.customers.customerIdOf(user.id)
  if (!winner) throw new Error('the processor customer claimed by a concurrent request has gone')
  return winner
}
