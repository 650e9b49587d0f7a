import type { PaymentProcessor } from '@tutoring/domain/payments'
import type { Config } from '../config'
import type { DatabaseHandle } from '../db/connect'
import { offlineProcessor } from './offline-processor'
import { stripeProcessor } from './stripe-processor'

export { offlineProcessor } from './offline-processor'
export { ProcessorUnavailable, stripeProcessor, hostOptions, type StripeProcessorOptions } from './stripe-processor'
export { verifyStripeSignature, SIGNATURE_TOLERANCE_SECONDS, type SignatureCheck } from './stripe-signature'

/** The real processor when `STRIPE_SECRET_KEY` is set, else the offline default. */
export function processorFromConfig(config: Config, database: DatabaseHandle, now: () => Date, baseUrl: string): PaymentProcessor {
  if (!config.STRIPE_SECRET_KEY) return offlineProcessor(database, { now, baseUrl })
  return stripeProcessor({ secretKey: config.STRIPE_SECRET_KEY, apiBase: config.STRIPE_API_BASE, timeoutMs: config.STRIPE_TIMEOUT_MS, maxNetworkRetries: config.STRIPE_MAX_NETWORK_RETRIES })
}
