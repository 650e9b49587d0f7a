import { BOOKING_STATES, transitionBooking } from '@tutoring/domain/booking'
import { DEFAULT_CANCELLATION_POLICY, refundAmount, refundPercentFor } from '@tutoring/domain/pricing'

// The booking machine, beside the lesson's: the next state and what the payments adapter must do
// (amounts in pence), or a typed error.
const show = (step: string, result: ReturnType<typeof transitionBooking>) =>
  console.log(
    result.match(
      ({ to, effects }) =>
        `${step}: ${to} (${BOOKING_STATES[to]}) ${effects.map((e) => ('amountPence' in e ? `${e.type} ${e.amountPence}` : e.type)).join(', ') || 'no effects'}`,
      (error) => `${step}: ${error.type}`,
    ),
  )

const createdAt = new Date('2030-01-06T12:00:00Z')
show('create', transitionBooking('NEW', 'create', {}))

// An unpaid booking holds its slot for 15 minutes.
show('expire after 10 min', transitionBooking('AWAITING_PAYMENT', 'expire_hold', { now: new Date('2030-01-06T12:10:00Z'), createdAt, lessonState: 'ACTIVE' }))
show('expire after 20 min', transitionBooking('AWAITING_PAYMENT', 'expire_hold', { now: new Date('2030-01-06T12:20:00Z'), createdAt, lessonState: 'ACTIVE' }))

// Paid by a card authorised now and captured later.
show('pay', transitionBooking('AWAITING_PAYMENT', 'pay', { capture: 'manual', lessonState: 'ACTIVE' }))
show('capture', transitionBooking('REQUIRES_CAPTURE', 'capture', {}))

// Cancelled 12 hours before the start: the policy refunds half of the 4950 paid.
const start = new Date('2030-01-07T09:00:00Z')
const refundPence = refundAmount(4950, refundPercentFor(DEFAULT_CANCELLATION_POLICY, start, new Date('2030-01-06T21:00:00Z')))
show('cancel when paid', transitionBooking('PAYED', 'cancel', { paidPence: 4950, refundPence, lessonState: 'ACTIVE' }))
// Still only authorised: the kept half is captured and the rest released.
show('cancel when authorised', transitionBooking('REQUIRES_CAPTURE', 'cancel', { paidPence: 4950, refundPence, lessonState: 'ACTIVE' }))
