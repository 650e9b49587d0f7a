import type { ErrorRows } from '../platform/error-spec'

/** The payments context's rows of the error table (platform/domain-errors.ts). */
export const paymentsErrors = {
  PaymentFailed: {
    status: 402,
    code: 'payment_failed',
    title: 'Payment failed',
    detail: (e: { reason: string }) => e.reason,
  },
} satisfies ErrorRows
