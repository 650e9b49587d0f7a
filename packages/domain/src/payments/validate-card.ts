import { err, ok, ResultAsync } from 'neverthrow'
import { validationFailed, type ValidationFailed } from '../shared'
import type { CardDetails } from './payment-processor'
import type { PaymentsDeps } from './ports'

/** `POST /api/cards/validate`: what the processor says of a payment method, nothing saved. */
export function validateCard(deps: Pick<PaymentsDeps, 'processor'>, input: { paymentMethod: string }): ResultAsync<CardDetails, ValidationFailed> {
  return ResultAsync.fromSafePromise(deps.processor.checkCard(input.paymentMethod)).andThen((checked) =>
    checked.isErr() ? err(validationFailed({ payment_method: [checked.error.reason] })) : ok(checked.value),
  )
}
