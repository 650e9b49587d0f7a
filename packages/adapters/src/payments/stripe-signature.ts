import Stripe from 'stripe'

/** CONTRACT.md §8: a signature older (or further ahead) than this is refused. */
export const SIGNATURE_TOLERANCE_SECONDS = 300

export type SignatureCheck = { valid: true } | { valid: false; reason: string }

/**
 * The processor's `Stripe-Signature` header (`t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "t.payload">`, several `v1` allowed while a secret rolls) checked against the raw body
 * with the SDK's own verifier. The SDK only refuses old timestamps; one more than the
 * tolerance in the future is refused here too, so a leaked signature can't be post-dated.
 */
export function verifyStripeSignature(payload: string, header: string | undefined, secret: string, nowMs: number): SignatureCheck {
  if (!header) return { valid: false, reason: 'The Stripe-Signature header is missing.' }
  const timestamp = Number(/(?:^|,)\s*t=(\d+)/.exec(header)?.[1])
  if (Number.isFinite(timestamp) && timestamp - Math.floor(nowMs / 1000) > SIGNATURE_TOLERANCE_SECONDS) {
    return { valid: false, reason: 'The signature timestamp is outside the tolerance.' }
  }
  const verifier = Stripe.webhooks.signature
  if (!verifier) throw new Error('the Stripe SDK has no webhook signature verifier')
  try {
    verifier.verifyHeader(payload, header, secret, SIGNATURE_TOLERANCE_SECONDS, undefined, nowMs)
    return { valid: true }
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) return { valid: false, reason: signatureOutcome(error.message) }
    throw error
  }
}

/** The SDK's message, without its advice on framework body parsers. */
export const signatureOutcome = (message: string): string => {
  if (/tolerance/i.test(message)) return 'The signature timestamp is outside the tolerance.'
  if (/No signatures found|Unable to extract/i.test(message)) return 'The Stripe-Signature header is malformed or has no v1 signature.'
  return 'The signature does not match the payload.'
}
