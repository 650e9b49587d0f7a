import { routeGroups } from '../platform/routes'
import { legacyPaymentRoutes } from './legacy-payments.routes'
import { paymentWebhookRoutes } from './payment-webhooks.routes'
import { paymentRoutes } from './payments.routes'

/** Paying for bookings, payment status, coupons, the legacy /api/v1/payments and the payment webhook. */
export const routes = routeGroups(paymentRoutes, legacyPaymentRoutes, paymentWebhookRoutes)
