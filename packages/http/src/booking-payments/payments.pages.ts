import { html } from 'hono/html'
import type { PaymentStatus } from '@tutoring/domain/booking'
import { htmlPage } from '../platform/html-page'

const page = (title: string, message: string) => htmlPage(title, html`<p>${message}</p><p>You can close this page and return to the app.</p>`, '')

const OUTCOMES: Record<PaymentStatus, { title: string; message: string }> = {
  requires_capture: { title: 'Payment authorised', message: 'Your card has been authorised. The lesson is booked; the charge is taken after it.' },
  succeeded: { title: 'Payment complete', message: 'Your payment went through and the lesson is booked.' },
  scheduled: { title: 'Card saved', message: 'Your card is saved and will be authorised closer to the lesson.' },
  processing: { title: 'Payment processing', message: 'Your bank is still processing the payment. The app shows the outcome once it is known.' },
  requires_action: { title: 'Payment not finished', message: 'The check with your bank was not completed. Try paying again from the app.' },
  requires_confirmation: { title: 'Payment not finished', message: 'The payment was not confirmed. Try paying again from the app.' },
  requires_payment_method: { title: 'Payment failed', message: 'Your bank did not approve the payment. Try again with another card from the app.' },
  canceled: { title: 'Payment cancelled', message: 'This payment was cancelled; nothing was taken.' },
}

/** Where a customer's browser lands after a 3-D Secure step: the payment's outcome in words. */
export const paymentOutcomePage = (status: PaymentStatus) => page(OUTCOMES[status].title, OUTCOMES[status].message)

export const paymentNotFoundPage = () => page('Payment not found', 'There is no such payment. Check the app for your booking.')
