export { failingPayments, rowToPayment } from './payment.repository'
