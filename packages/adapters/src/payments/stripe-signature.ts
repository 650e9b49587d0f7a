import Stripe from 'stripe'

/** CONTRACT.md §8: a signature older (or further ahead) than this is refused. */
export const SIGNATURE_TOLERANCE_SECONDS = 300

export type SignatureCheck = { valid: true } | { valid: false; reason: string }

const MISSING = 'The Stripe-Signature header is missing.'
const MALFORMED = 'The Stripe-Signature header is malformed: it needs t=<unix seconds> and at least one v1=<hex signature>.'
const OUTSIDE_TOLERANCE = `The signature timestamp is outside the tolerance (${SIGNATURE_TOLERANCE_SECONDS} s).`
const WRONG = "The signature does not match the payload and this receiver's signing secret."

/** The header's timestamp, when it has one and at least one `v1` signature: the form the SDK can check. */
function timestampOf(header: string): number | undefined {
  const parts = header.split(',').map((part) => part.trim())
  const t = parts.find((part) => /^t=\d+$/.test(part))
  return t && parts.some((part) => /^v1=[0-9a-f]+$/i.test(part)) ? Number(t.slice(2)) : undefined
}

/**
 * The processor's `Stripe-Signature` header (`t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "t.payload">`, several `v1` allowed while a secret rolls) checked against the raw body
 * with the SDK's own verifier. The form and the timestamp are read here, so the sender is
 * told which of missing, malformed, outside the tolerance (either way: a leaked signature
 * can't be post-dated) or wrong it is; the SDK then only compares the HMAC.
 */
export function verifyStripeSignature(payload: string, header: string | undefined, secret: string, nowMs: number): SignatureCheck {
  if (!header) return { valid: false, reason: MISSING }
  const timestamp = timestampOf(header)
  if (timestamp === undefined) return { valid: false, reason: MALFORMED }
  if (Math.abs(timestamp - Math.floor(nowMs / 1000)) > SIGNATURE_TOLERANCE_SECONDS) return { valid: false, reason: OUTSIDE_TOLERANCE }
  const verifier = Stripe.webhooks.signature
  if (!verifier) throw new Error('the Stripe SDK has no webhook signature verifier')
  try {
    verifier.verifyHeader(payload, header, secret, SIGNATURE_TOLERANCE_SECONDS, undefined, nowMs)
    return { valid: true }
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) return { valid: false, reason: WRONG }
    throw error
  }
}
